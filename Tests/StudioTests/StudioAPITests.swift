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
}
