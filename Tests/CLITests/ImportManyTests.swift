import Foundation
import LookStudioTestSupport
import Testing

/// `import` of several files says which GUID belongs to which file, and names the file of each failure.
@Suite("import of several files")
struct ImportManyTests {
    @Test("one line per file, in the order given: the file and its GUID, or an error naming the file")
    func oneLinePerFile() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let warm = dir + "/warm.cube", cool = dir + "/cool.cube", broken = dir + "/broken.cube"
        try FileManager.default.copyItem(atPath: CLI.fixtures + "/reference/warm17.cube", toPath: warm)
        try FileManager.default.copyItem(atPath: CLI.fixtures + "/reference/warm33.cube", toPath: cool)
        try "LUT_3D_SIZE 2\n0 0 0\n1 0\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let run = try CLI.run(["import", warm, broken, cool] + catalog)
        #expect(run.status != 0, "a failed file makes the run fail")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(run.stdout)")
        #expect(lines.first?.hasPrefix(warm + "\t") == true && lines.last?.hasPrefix(cool + "\t") == true,
                "\(run.stdout)")
        let listed = try CLI.run(["looks", "list", "--json"] + catalog)
        for line in lines {
            let guid = try #require(line.split(separator: "\t").last.map(String.init))
            #expect(guid.count == 36 && listed.stdout.contains(guid), "\(line)")
        }
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].contains("broken.cube"), "\(run.stderr)")

        let single = try CLI.run(["import", dir + "/warm.cube", "--as-new"] + catalog)
        #expect(single.status == 0 && single.stdout.trimmingCharacters(in: .whitespacesAndNewlines).count == 36,
                "one file still prints the bare GUID scripts capture: \(single.stdout)")
    }
}
