import Foundation
import LookStudioTestSupport
import Testing

/// `scripts/check-architecture`: the documented module graph is the one the code keeps.
@Suite struct CheckArchitectureTests {
    static let script = CLI.packageRoot + "/scripts/check-architecture"

    /// A scratch checkout: the real table and docs, and `files` (path → contents) as its Sources.
    static func tree(_ files: [String: String]) throws -> String {
        let root = try CLI.tempDir()
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/scripts", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
        try manager.copyItem(atPath: CLI.packageRoot + "/scripts/architecture.tsv", toPath: root + "/scripts/architecture.tsv")
        try manager.copyItem(atPath: CLI.packageRoot + "/docs/ARCHITECTURE.md", toPath: root + "/docs/ARCHITECTURE.md")
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("the package's own imports all follow the documented graph")
    func packagePasses() throws {
        let result = try CLI.run(command: Self.script, [])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("an import the graph does not allow fails, naming the file, the line and the module")
    func forbiddenImportFails() throws {
        let root = try Self.tree([
            "Sources/lookstudio/Commands/Bad.swift": "import ArgumentParser\nimport LookCatalog\n",
            "Sources/LookModel/Fine.swift": "import Foundation\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(command: Self.script, ["--root", root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources/lookstudio/Commands/Bad.swift:2: lookstudio may not import LookCatalog"))
        #expect(!result.stderr.contains("Fine.swift"))
    }

    @Test("a module without a row in the table, and a module section that drifted from the table, fail")
    func unlistedModuleAndDriftFail() throws {
        let root = try Self.tree(["Sources/NewThing/A.swift": "import LookCore\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let doc = root + "/docs/ARCHITECTURE.md"
        try (try String(contentsOfFile: doc, encoding: .utf8)).replacingOccurrences(of: "| `LookModel` | data", with: "| `LookModel` | files")
            .write(toFile: doc, atomically: true, encoding: .utf8)
        let result = try CLI.run(command: Self.script, ["--root", root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources/NewThing: a module with no row"))
        #expect(result.stderr.contains("docs/ARCHITECTURE.md: the module section differs"))
    }
}
