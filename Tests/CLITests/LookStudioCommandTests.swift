import Foundation
import LookStudioTestSupport
import Testing

@Suite struct LookStudioCommandTests {
    @Test("global options work before the subcommand as well as after it")
    func globalOptionsBeforeSubcommand() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = "\(dir)/before.sqlite"
        let path = try CLI.run(["--catalog", catalog, "catalog", "path"])
        #expect(path.status == 0)
        #expect(path.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == catalog)
        let list = try CLI.run(["--catalog", catalog, "looks", "list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(FileManager.default.fileExists(atPath: catalog))
        let after = try CLI.run(["looks", "list", "--json", "--catalog", catalog])
        #expect(after.stdout == list.stdout)
    }

    @Test("--help prints help for the root and for a subcommand, and exits 0")
    func help() throws {
        let root = try CLI.run(["--help"])
        #expect(root.status == 0 && root.stdout.contains("SUBCOMMANDS"))
        let apply = try CLI.run(["apply", "--help"])
        #expect(apply.status == 0 && apply.stdout.contains("--strength") && !apply.stderr.contains("error"))
    }
}
