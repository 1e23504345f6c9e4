import Foundation
import Testing
@testable import LookFormats

@Suite("The CDL reader's XML and encoding checks (CDLMarkup): bounded, UTF-8 first, lines in every error")
struct CDLMarkupTests {
    static func refusal(_ bytes: [UInt8], _ name: String = "grade.cc") -> String {
        CDLFileTests.refusal(bytes, name)
    }

    static func refusal(_ text: String) -> String { CDLFileTests.refusal(text) }

    @Test("bytes that are not UTF-8 in an element name are refused with the line, without a crash")
    func nonUTF8Name() {
        let bytes = Array("<ColorCorrection>\n<Sat".utf8) + [0xFF, 0xFE] + Array("Node/>\n</ColorCorrection>".utf8)
        #expect(Self.refusal(bytes) == "grade.cc line 2: bytes that are not UTF-8: LookStudio reads CDL files in "
                + "UTF-8 (save the file as UTF-8)")
    }

    @Test("non-UTF-8 bytes anywhere (attribute name, value, text, a cut-short sequence) are refused", arguments: [
        Array("<ColorCorrection i".utf8) + [0xC3] + Array("d=\"a\"/>".utf8),
        Array("<ColorCorrection id=\"".utf8) + [0xE9] + Array("\"/>".utf8),
        Array("<ColorCorrection><Description>caf".utf8) + [0xE9] + Array("</Description></ColorCorrection>".utf8),
        Array("<ColorCorrection/>".utf8) + [0xE2, 0x82],
        Array("<ColorCorrection/>".utf8) + [0xED, 0xA0, 0x80],  // an encoded surrogate
        Array("<ColorCorrection/>".utf8) + [0xC0, 0xAF],  // an overlong "/"
    ])
    func nonUTF8Anywhere(bytes: [UInt8]) {
        #expect(Self.refusal(bytes).hasPrefix("grade.cc line 1: bytes that are not UTF-8"))
    }

    @Test("control characters other than tab, CR and LF are refused by code point")
    func controlCharacters() {
        #expect(Self.refusal("<ColorCorrection>\r\n\r\n<Description>a\u{1}b</Description></ColorCorrection>")
                == "grade.cc line 3: control character U+0001: a CDL file is text (tab, line feed and carriage "
                + "return are the only ones allowed)")
        #expect(Self.refusal("<ColorCorrection>\u{85}</ColorCorrection>").contains("U+0085"))
        #expect(Self.refusal("<ColorCorrection>&#1;</ColorCorrection>").contains("&#1; is not a character"))
    }

    @Test("UTF-16 files are named as such; a UTF-8 byte-order mark is accepted")
    func byteOrderMarks() throws {
        #expect(Self.refusal([0xFF, 0xFE, 0x3C, 0x00]).contains("the file is UTF-16"))
        let bom = [0xEF, 0xBB, 0xBF] + Array("<ColorCorrection id=\"a\"/>".utf8)
        #expect(try CDLFile.parse(bom, fileName: "bom.cc").corrections[0].id == "a")
    }

    @Test("XML that is not well formed: each refusal names its line", arguments: [
        ("<ColorCorrection>\n<SOPNode>\n<Slope>1 1 1</Slope>", "grade.cc line 3: the file ends inside <SOPNode> "
         + "(opened line 2): it is cut short"),
        ("<ColorCorrection>\n<SatNode></SOPNode></ColorCorrection>", "grade.cc line 2: </SOPNode> closes <SatNode>, "
         + "opened at line 2"),
        ("<!DOCTYPE x [<!ENTITY a \"aaaa\">]>\n<ColorCorrection/>", "grade.cc line 1: a DOCTYPE or other "
         + "declaration: a CDL file has no use for one, and LookStudio does not read DTDs (remove it)"),
        ("<ColorCorrection>&nbsp;</ColorCorrection>", "grade.cc line 1: &nbsp; is not an XML entity (use &lt; &gt; "
         + "&amp; &quot; &apos; or &#…;)"),
        ("hello <ColorCorrection/>", "grade.cc line 1: text before the root element"),
        ("<ColorCorrection/>\n<ColorCorrection/>", "grade.cc line 2: a second root element <ColorCorrection>: a CDL "
         + "file holds one"),
        ("", "grade.cc line 1: no XML element: the file is empty or not XML"),
        ("<ColorCorrection id=a/>", "grade.cc line 1: the value of id in <ColorCorrection> is not in quotes"),
        ("<ColorCorrection id=\"a\" id=\"b\"/>", "grade.cc line 1: <ColorCorrection> has attribute id twice"),
        ("<!-- never closed\n<ColorCorrection/>", "grade.cc line 1: a comment opened here is never closed with -->"),
        ("<ColorCorrection>\n\n<Description>a & b</Description></ColorCorrection>", "grade.cc line 3: \"&\" that "
         + "starts no entity: write &amp; for an ampersand"),
    ])
    func malformed(xml: String, message: String) {
        #expect(Self.refusal(xml) == message)
    }

    @Test("nesting, element count and attributes are bounded")
    func bounds() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(Self.refusal(deep) == "grade.cc line 1: elements nested more than 64 deep")
        let many = "<ColorCorrectionCollection>" + String(repeating: "<x/>", count: 200_001)
            + "</ColorCorrectionCollection>"
        #expect(Self.refusal(many).hasSuffix("more than 200000 elements: larger than any CDL file LookStudio reads"))
        let attributes = (0..<40).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        #expect(Self.refusal("<ColorCorrection \(attributes)/>").hasSuffix("has more than 32 attributes"))
    }

    @Test("comments, processing instructions and CRLF / lone-CR lines are counted as lines")
    func lineCounting() {
        let xml = "<?xml version=\"1.0\"?>\r\n<!-- a\r\nb -->\r<ColorCorrection>\n<SatNode><Saturation>1 2"
            + "</Saturation></SatNode></ColorCorrection>"
        #expect(Self.refusal(xml) == "grade.cc line 5: <Saturation> has 2 numbers, expected 1 (\"1 2\")")
    }
}
