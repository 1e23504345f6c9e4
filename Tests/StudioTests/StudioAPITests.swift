import Foundation
import LookStudioTestSupport
import Testing

/// The studio's JSON API as the README states it, against `lookstudio studio --port 0` on a shipped photo.
@Suite(.serialized) struct StudioAPITests {
    static let photo = StudioServerTests.photo

    /// `{"recipe": …}` of one contrast step, with `name` and `tags` when given.
    static func body(contrast: Double, name: String? = nil, tags: String = "") -> String {
        let recipe = #"{"steps":[{"adjust":"tone.contrast","params":{"amount":\#(contrast)}}]}"#
        return "{" + (name.map { #""name":"\#($0)","# } ?? "") + tags + #""recipe":\#(recipe)}"#
    }

    static func post(_ studio: StudioProcess, _ target: String, _ json: String) throws -> StudioProcess.Reply {
        try studio.request(target, method: "POST", body: Array(json.utf8))
    }

    @Test func savingACubeTheCatalogHoldsIsAConflictNamingThatLookAndSavesNothing() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let first = try Self.post(studio, "/api/looks", Self.body(contrast: 0.3, name: "Contrast A"))
        #expect(first.status == 201)
        let a = StudioServerTests.guid(first.text)
        let twin = try Self.post(studio, "/api/looks",
                                 Self.body(contrast: 0.3, name: "Contrast B", tags: #""tags":["twin"],"#))
        #expect(twin.status == 409)
        #expect(twin.text.contains(#"already stored as \"Contrast A\""#) && twin.text.contains("nothing was saved"))
        #expect(StudioServerTests.guid(twin.text) == a)
        #expect(!(try studio.request("/api/looks").text.contains("Contrast B")))

        let sameName = try Self.post(studio, "/api/looks", Self.body(contrast: 0.5, name: "Contrast A"))
        #expect(sameName.status == 409, "\(sameName.text)")

        // A version whose cube is the current one stores nothing, and says so.
        let unchanged = try Self.post(studio, "/api/looks/\(a)/version", Self.body(contrast: 0.3))
        #expect(unchanged.status == 409)
        #expect(unchanged.text.contains(#"the current version of \"Contrast A\""#))
        let other = try Self.post(studio, "/api/looks", Self.body(contrast: 0.6, name: "Contrast C"))
        let taken = try Self.post(studio, "/api/looks/\(StudioServerTests.guid(other.text))/version",
                                  Self.body(contrast: 0.3))
        #expect(taken.status == 409 && taken.text.contains(a))
        let show = try StudioServerTests.cli(["--catalog", studio.catalog, "looks", "show", a, "--json"])
        let record = try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any]
        #expect(record?["version"] as? Int == 1, "\(show.out)")
        #expect(studio.interrupt() == 0)
    }

    @Test func aLooksThumbnailShowsItsNewVersionAtOnce() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let saved = try Self.post(studio, "/api/looks", Self.body(contrast: 0.2, name: "Versioned"))
        let guid = StudioServerTests.guid(saved.text)
        let before = try studio.request("/api/looks/\(guid)/thumbnail?photo=0")
        #expect(before.status == 200)
        let version = try Self.post(studio, "/api/looks/\(guid)/version", Self.body(contrast: 0.9))
        #expect(version.status == 200)
        let after = try studio.request("/api/looks/\(guid)/thumbnail?photo=0")
        #expect(after.status == 200 && after.body != before.body, "the thumbnail still shows version 1")
        // The first version, asked for as GUID@1, is still drawn with its own cube.
        #expect(try studio.request("/api/looks/\(guid)@1/thumbnail?photo=0").body == before.body)
        #expect(studio.interrupt() == 0)
    }

    @Test func bodiesOverTheLimitsAre413WithTheLimitNamed() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        // Declared lengths are refused before the body is read.
        let upload = try studio.request("/api/photos", method: "POST", headers: ["Content-Length": "\(300 << 20)"])
        #expect(upload.status == 413)
        #expect(upload.text == #"{"error":"the upload is over the 256 MiB limit"}"#)
        let declared = try studio.request("/api/compose", method: "POST", headers: ["Content-Length": "\(5 << 20)"])
        #expect(declared.status == 413)
        #expect(declared.text == #"{"error":"the JSON body is over the 4 MiB limit"}"#)
        // A chunked body has no length to check: it is refused once more than the limit has arrived.
        let json = Array(#"{"recipe":{"steps":[]},"pad":""#.utf8) + [UInt8](repeating: 0x20, count: 4 << 20)
            + Array(#""}"#.utf8)
        let chunked = Array(String(json.count, radix: 16).utf8) + [13, 10] + json + Array("\r\n0\r\n\r\n".utf8)
        let streamed = try studio.request("/api/compose", method: "POST", headers: ["Transfer-Encoding": "chunked"],
                                          body: chunked)
        #expect(streamed.status == 413)
        #expect(streamed.text == #"{"error":"the JSON body is over the 4 MiB limit"}"#)
        #expect(try studio.request("/api/photos").status == 200, "the server still answers")
        #expect(studio.interrupt() == 0)
    }

    /// A PNG whose header announces `width`×`height` 8-bit RGB pixels, with no image data.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        // libpng reads up to the first IDAT before the size is checked: an empty one and IEND follow the header.
        let chunks = [Array("IHDR".utf8) + be(width) + be(height) + [8, 2, 0, 0, 0], Array("IDAT".utf8),
                      Array("IEND".utf8)]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunks.flatMap {
            be(UInt32($0.count - 4)) + $0 + be(crc32($0))
        }
    }

    @Test func uploadErrorsNameTheDroppedFileNeverTheServersTemporaryOne() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.photo)))
        let cmyk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLI.fixtures + "/odd/cmyk.jpg")))
        let cases: [(name: String, bytes: [UInt8], says: String)] = [
            ("holiday.png", Array(png.prefix(png.count / 2)), "holiday.png: cannot read the photo: truncated"),
            ("scan.jpg", cmyk, "`convert scan.jpg -colorspace sRGB scan-rgb.jpg`"),
            ("huge.png", Self.pngHeader(width: 20000, height: 20000),
             "20000×20000 = 400,000,000 pixels is over the studio's limit of 250,000,000 pixels"),
        ]
        for item in cases {
            let reply = try studio.request("/api/photos", method: "POST", headers: ["X-File-Name": item.name],
                                           body: item.bytes)
            #expect(reply.status == 400)
            #expect(reply.text.contains(item.says), "\(reply.text)")
            #expect(!reply.text.contains("lookstudio-studio-") && !reply.text.contains("--max-pixels"),
                    "\(reply.text)")
            #expect(reply.text.range(of: "[0-9A-F]{8}-[0-9A-F]{4}-", options: .regularExpression) == nil,
                    "a temporary file's UUID name: \(reply.text)")
        }
        #expect(studio.interrupt() == 0)
    }

    @Test func exportBitsAreCheckedPerFormatBeforeAnythingIsWritten() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let saved = try Self.post(studio, "/api/looks", Self.body(contrast: 0.4, name: "Bits"))
        let guid = StudioServerTests.guid(saved.text)
        let refused = [
            ("png&bits=12", "bits=12: a .png look is written with 8 or 16 bits"),
            ("3dl&bits=8", "bits=8: a .3dl look is written with 10, 12 or 16 bits"),
            ("cube&bits=16", "bits=16: a .cube file holds decimal numbers and has no bit depth"),
        ]
        for (query, says) in refused {
            let reply = try studio.request("/api/looks/\(guid)/export?format=\(query)")
            #expect(reply.status == 400 && reply.text.contains(says), "\(query): \(reply.text)")
            #expect(!reply.text.contains("export-"), "names the temporary file: \(reply.text)")
        }
        let png = try studio.request("/api/looks/\(guid)/export?format=png&bits=8")
        #expect(png.status == 200 && png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(studio.interrupt() == 0)
    }

    @Test func aNonASCIILookNameIsSentAsAnASCIIFilenameAndAUTF8FilenameStar() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let saved = try Self.post(studio, "/api/looks", Self.body(contrast: 0.45, name: "Café Noir"))
        let reply = try studio.request("/api/looks/\(StudioServerTests.guid(saved.text))/export?format=cube")
        #expect(reply.status == 200)
        let field = "content-disposition: "
        let disposition = reply.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(field) }
        #expect(disposition.map { String($0.dropFirst(field.count)) } == #"attachment; filename="Caf__Noir.cube"; "#
            + "filename*=UTF-8''Caf%C3%A9_Noir.cube")
        #expect(reply.headers.unicodeScalars.allSatisfy { $0.isASCII }, "\(reply.headers)")
        #expect(studio.interrupt() == 0)
    }

    /// The reply's `error`, when the body is `{"error": "…"}` with a string.
    static func error(_ reply: StudioProcess.Reply) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])?["error"] as? String
    }

    @Test func aWrongMethodIs405WithAllowAndABadQueryOrPathValueIs400InTheOneErrorShape() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        for (method, target, allow) in [("DELETE", "/api/photos", "GET, POST, HEAD"), ("GET", "/api/compose", "POST"),
                                        ("PUT", "/api/looks/X/rename", "POST"), ("POST", "/studio.js", "GET, HEAD")] {
            let reply = try studio.request(target, method: method)
            #expect(reply.status == 405, "\(method) \(target)")
            #expect(reply.headers.contains("\r\nAllow: \(allow)\r\n") || reply.headers.hasSuffix("Allow: \(allow)"),
                    "\(reply.headers)")
            #expect(Self.error(reply) == "\(method) is not served here; use \(allow)")
        }
        #expect(try studio.request("/api/photos", method: "HEAD").status == 200)
        let refused = [
            ("/api/photos/0/preview?long=abc", "long=abc: expected a whole number"),
            ("/api/photos/0/preview?format=gif", "format=gif: use png or jpeg"),
            ("/api/looks/X/thumbnail?photo=first", "photo=first: expected a whole number"),
            ("/api/looks/X/export?format=png&bits=many", "bits=many: expected a whole number"),
        ]
        for (target, says) in refused {
            let reply = try studio.request(target)
            #expect(reply.status == 400 && Self.error(reply) == says, "\(target): \(reply.text)")
        }
        let parameter = try studio.request("/api/photos/abc/preview")
        #expect(parameter.status == 400 && Self.error(parameter)?.contains("'abc'") == true, "\(parameter.text)")
        #expect(studio.interrupt() == 0)
    }
}
