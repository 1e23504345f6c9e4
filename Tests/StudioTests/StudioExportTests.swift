import Foundation
import LookStudioTestSupport
import Testing

/// The studio's export goes through the command line's export use case: every `export --for` target, same files.
@Suite(.serialized) struct StudioExportTests {
    @Test func theExportMenuListsEveryTargetOfTheCommandLine() throws {
        let studio = try StudioProcess(photos: [StudioAPITests.photo])
        let listed = try studio.request("/api/export-targets")
        #expect(listed.status == 200)
        let targets = try JSONSerialization.jsonObject(with: Data(listed.body)) as? [[String: Any]] ?? []
        let ids = targets.compactMap { $0["id"] as? String }
        let cli = try CLI.run(["export", "--list-targets"])
        let cliIDs = cli.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(!ids.isEmpty && ids == cliIDs, "studio \(ids), CLI \(cliIDs)")
        #expect(studio.interrupt() == 0)
    }

    @Test("a look saved and exported through the studio's API gives the files the CLI writes",
          arguments: ["resolve", "ocio", "lightroom", "hald"])
    func exportMatchesTheCommandLine(target: String) throws {
        let studio = try StudioProcess(photos: [StudioAPITests.photo])
        let saved = try StudioAPITests.post(studio, "/api/looks", StudioAPITests.body(contrast: 0.35, name: "Export Me"))
        #expect(saved.status == 201)
        let guid = StudioServerTests.guid(saved.text)
        let reply = try StudioAPITests.post(studio, "/api/looks/\(guid)/export", #"{"target":"\#(target)","strength":80}"#)
        #expect(reply.status == 200, "\(reply.text)")
        let object = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
        let files = (object?["files"] as? [[String: Any]] ?? []).compactMap { file -> (String, Data)? in
            guard let name = file["name"] as? String, let data = (file["data"] as? String).flatMap({ Data(base64Encoded: $0) })
            else { return nil }
            return (name, data)
        }
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let main = try #require(files.first, "no file in \(reply.text)")
        let cli = try CLI.run(["--catalog", studio.catalog, "export", guid, "--for", target, "--strength", "80",
                               "-o", "\(dir)/\(main.0)"])
        #expect(cli.status == 0, "\(cli.stderr)")
        for (name, data) in files {
            let written = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
            #expect(written == data, "\(target): \(name) differs from the CLI's")
        }
        #expect(studio.interrupt() == 0)
    }
}
