import Testing
@testable import LookGallery

@Suite struct HTMLTextTests {
    @Test("element text escapes the three markup characters and nothing else")
    func text() {
        #expect(HTMLText.text("a < b && c > \"d\" 'é'\n") == "a &lt; b &amp;&amp; c &gt; \"d\" 'é'\n")
    }

    @Test("attribute values also escape quotes, apostrophes and line and tab characters")
    func attribute() {
        #expect(HTMLText.attribute("<\"x\" & 'y'>\n\r\t") == "&lt;&quot;x&quot; &amp; &#39;y&#39;&gt;&#10;&#13;&#9;")
    }

    @Test("script JSON writes <, >, & and U+2028/2029 as \\u escapes, which JSON.parse reads back unchanged")
    func scriptJSON() throws {
        #expect(try HTMLText.scriptJSON(["</script><!-- & \u{2028}\u{2029}"])
                == "[\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029\"]")
        #expect(try HTMLText.scriptString("a\"b") == "\"a\\\"b\"")
    }
}
