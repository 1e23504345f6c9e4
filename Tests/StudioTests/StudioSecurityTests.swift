import Foundation
import LookStudioTestSupport
import Testing

/// The studio's server, started as `lookstudio studio --port 0` on a shipped photo: its guards and its API.
@Suite(.serialized) struct StudioServerTests {
    static let photo = CLI.packageRoot + "/samples/coffee.png"

    @Test func everyRequestNeedsTheToken() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        for target in ["/", "/studio.js", "/api/photos", "/api/looks", "/api/photos/0/preview", "/nowhere"] {
            #expect(try studio.request(target, token: .some(nil)).status == 403, "\(target) without a token")
            let wrong = (studio.token.hasPrefix("0") ? "1" : "0") + String(studio.token.dropFirst())
            #expect(try studio.request(target, token: wrong).status == 403, "\(target) with a wrong token")
        }
        #expect(try studio.request("/api/photos").status == 200)
        // The first page load carries the token in the URL and gets the cookie the page's images then use.
        let page = try studio.request("/?token=\(studio.token)", token: .some(nil))
        #expect(page.status == 200)
        #expect(page.text.contains("/studio.js"))
        #expect(page.headers.contains("lookstudio_token_\(studio.port)=\(studio.token)"))
        let cookie = "lookstudio_token_\(studio.port)=\(studio.token)"
        #expect(try studio.request("/api/photos/0/thumbnail", token: .some(nil), headers: ["Cookie": cookie])
            .status == 200)
        #expect(studio.interrupt() == 0)
    }

    @Test func foreignHostOrOriginIsRefused() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let p = studio.port
        #expect(try studio.request("/api/photos", host: "localhost:\(p)").status == 200)
        #expect(try studio.request("/api/photos", host: "evil.example:\(p)").status == 403)
        #expect(try studio.request("/api/photos", host: "127.0.0.1").status == 403)
        #expect(try studio.request("/api/photos", host: "127.0.0.1:\(p + 1)").status == 403)
        #expect(try studio.request("/api/photos", origin: "http://127.0.0.1:\(p)").status == 200)
        #expect(try studio.request("/api/photos", origin: "http://localhost:\(p)").status == 200)
        #expect(try studio.request("/api/photos", origin: "http://evil.example").status == 403)
        #expect(try studio.request("/api/photos", origin: "http://127.0.0.1:\(p).evil.example").status == 403)
        #expect(try studio.request("/api/looks/X/rename", method: "POST", origin: "null",
                                   body: Array(#"{"name":"x"}"#.utf8)).status == 403)
        #expect(studio.interrupt() == 0)
    }

    @Test func noFileOutsideThePhotosAndTheCatalogIsReadable() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let attempts = [
            "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/studio.js/../../../etc/passwd",
            "/api/photos/../../../../etc/passwd", "/api/photos/..%2f..%2f..%2fetc%2fpasswd/preview",
            "/api/photos/%2fetc%2fpasswd/preview", "/api/photos/-1/preview", "/api/photos/1/preview",
            "/api/photos/99999999999999999999/preview", "/api/looks/..%2f..%2fetc%2fpasswd/export",
            "/api/looks/%2fetc%2fpasswd/thumbnail",
        ]
        for target in attempts {
            let reply = try studio.request(target)
            #expect(!reply.text.contains("root:"), "\(target) returned /etc/passwd")
            #expect([400, 404].contains(reply.status), "\(target): \(reply.status)")
        }
        // Unknown query items change nothing: still photo 0's preview.
        let ignored = try studio.request("/api/photos/0/preview?path=/etc/passwd&file=../../etc/passwd")
        #expect(ignored.body.starts(with: [0x89, 0x50, 0x4E, 0x47]) && !ignored.text.contains("root:"))
        // A dropped file's name is only shown: it never names where the bytes go or come from.
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.photo)))
        let added = try studio.request("/api/photos", method: "POST",
                                       headers: ["X-File-Name": "..%2F..%2Fetc%2Fpasswd"], body: png)
        #expect(added.status == 200)
        #expect(added.text.contains(#""name":"passwd""#))
        let preview = try studio.request("/api/photos/1/preview")
        #expect(preview.status == 200)
        #expect(preview.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(studio.interrupt() == 0)
    }

    @Test func lutStepsAreRefusedBeforeTheServerOpensTheFileTheyName() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let secret = studio.folder + "/secret.cube"
        try "SECRET_API_KEY=hunter2\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let looks = try studio.request("/api/looks").text
        let guid = Self.guid(String(looks.dropFirst().prefix { $0 != "}" }) + "}")
        let recipe = { (path: String) in #"{"steps":[{"adjust":"tone.contrast"},{"lut":"\#(path)"}]}"# }
        for (target, body) in [("/api/compose", #"{"recipe":RECIPE}"#),
                               ("/api/looks", #"{"name":"Leak","recipe":RECIPE}"#),
                               ("/api/looks/\(guid)/version", #"{"recipe":RECIPE}"#)] {
            // The same answer for a file that exists and one that does not: neither content nor existence leaks.
            let replies = try [secret, studio.folder + "/missing.cube"].map {
                try studio.request(target, method: "POST",
                                   body: Array(body.replacingOccurrences(of: "RECIPE", with: recipe($0)).utf8))
            }
            for reply in replies {
                #expect(reply.status == 400, "\(target): \(reply.status)")
                #expect(reply.text.contains("step 2: lut steps name files on the server"), "\(target): \(reply.text)")
                #expect(!reply.text.contains("SECRET") && !reply.text.contains("hunter2"))
            }
            #expect(replies[0].text == replies[1].text, "\(target)")
        }
        #expect(try studio.request("/api/looks").text == looks, "nothing was saved")
        #expect(studio.interrupt() == 0)
    }

    @Test func composeServesTheCubeAndTwoTabsSavingLeaveAConsistentCatalog() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let identity = try studio.request("/api/compose?format=f32", method: "POST",
                                          body: Array(#"{"recipe":{"steps":[]}}"#.utf8))
        #expect(identity.status == 200)
        #expect(identity.body.count == 33 * 33 * 33 * 3 * 4)
        let values = identity.body.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Entry (r, g, b) = (1, 2, 3): index 1 + 33·2 + 33²·3.
        let i = 3 * (1 + 33 * 2 + 33 * 33 * 3)
        #expect(abs(values[i] - 1 / 32) < 1e-6 && abs(values[i + 1] - 2 / 32) < 1e-6
                && abs(values[i + 2] - 3 / 32) < 1e-6)
        let warm = #"{"recipe":{"steps":[{"adjust":"wb.temperature","params":{"shift":900}}]},"strength":150}"#
        let u8 = try studio.request("/api/compose?format=u8", method: "POST", body: Array(warm.utf8))
        #expect(u8.status == 200 && u8.body.count == 33 * 33 * 33 * 3)
        // Warmer: the mid-grey entry's red above its blue.
        let mid = 3 * (16 + 33 * 16 + 33 * 33 * 16)
        #expect(u8.body[mid] > u8.body[mid + 2])

        // Two tabs save at the same moment.
        let group = DispatchGroup()
        let results = Results()
        for tab in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                let body = #"{"name":"Tab \#(tab)","tags":["studio"],"recipe":{"steps":[{"adjust":"tone.contrast","#
                    + #""params":{"amount":0.\#(tab + 2)}}]}}"#
                results.add(try? studio.request("/api/looks", method: "POST", body: Array(body.utf8)))
                group.leave()
            }
        }
        group.wait()
        #expect(results.all.map(\.status).sorted() == [201, 201])
        let renamed = try studio.request("/api/looks/\(Self.guid(results.all[0].text))/rename", method: "POST",
                                         body: Array(#"{"name":"Tab renamed"}"#.utf8))
        #expect(renamed.status == 200 && renamed.text.contains("Tab renamed"))
        let tagged = try studio.request("/api/looks/\(Self.guid(results.all[0].text))/tags", method: "POST",
                                        body: Array(#"{"tags":["warm","studio"]}"#.utf8))
        #expect(tagged.text.contains(#""tags":["studio","warm"]"#))
        let version = try studio.request("/api/looks/\(Self.guid(results.all[0].text))/version", method: "POST",
            body: Array(#"{"recipe":{"steps":[{"adjust":"color.saturation","params":{"amount":0.4}}]}}"#.utf8))
        #expect(version.status == 200 && version.text.contains("color.saturation"))
        #expect(version.text.contains("Tab renamed"))
        let exported = try studio.request("/api/looks/\(Self.guid(results.all[1].text))/export?format=cube")
        #expect(exported.status == 200 && exported.text.contains("LUT_3D_SIZE 64"))
        #expect(studio.interrupt() == 0)

        let verify = try Self.cli(["--catalog", studio.catalog, "catalog", "verify"])
        #expect(verify.status == 0, "\(verify.out)")
        let list = try Self.cli(["--catalog", studio.catalog, "looks", "list", "--tag", "studio", "--json"])
        let guids = results.all.map { Self.guid($0.text) }
        #expect(list.out.contains("Tab renamed") && list.out.contains("tone.contrast"))
        #expect(guids.allSatisfy { list.out.contains($0) })
    }

    static func guid(_ json: String) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["guid"] as? String ?? "missing"
    }

    static func cli(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Replies collected from concurrent requests.
final class Results: @unchecked Sendable {
    // Guarded by `lock`: written from two dispatch threads.
    private let lock = NSLock()
    private var replies: [StudioProcess.Reply] = []
    func add(_ reply: StudioProcess.Reply?) { if let reply { lock.withLock { replies.append(reply) } } }
    var all: [StudioProcess.Reply] { lock.withLock { replies } }
}
