import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

/// One error style: `error: …` then a hint naming the subcommand's help, on stderr, with documented exit codes.
@Suite struct ErrorStyleTests {
    @Test("argument errors print error: and a help hint, exit 64, no usage block")
    func argumentErrors() throws {
        let unknown = try CLI.run(["apply", "--lut", "a.cube", "--bogus", "in.png", "out.png"])
        #expect(unknown.status == 64)
        let lines = unknown.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("error: unknown option '--bogus'") == true, "\(unknown.stderr)")
        #expect(lines.last == "see 'lookstudio apply --help'", "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("Error:") && !unknown.stderr.contains("USAGE"), "\(unknown.stderr)")
        let missing = try CLI.run(["--catalog", "/nonexistent/c.sqlite", "looks", "versions"])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("error: missing expected argument"), "\(missing.stderr)")
        #expect(missing.stderr.contains("see 'lookstudio looks versions --help'"), "\(missing.stderr)")
        let validation = try CLI.run(["apply", "--lut", "a.cube", "--recipe", "r.yaml", "in.png", "out.png"])
        #expect(validation.status == 64)
        #expect(validation.stderr.hasPrefix("error: give only one of --look, --lut and --recipe\n"))
    }

    @Test("a negative value is read as a value: --strength -5 names the range, --look-contrast -20 is accepted")
    func negativeValues() throws {
        let (dir, lut) = try CorrectCommandTests.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["apply", "--lut", lut, "--strength", "-5", dir + "/in.png", dir + "/out.png"])
        #expect(r.status == 64)
        #expect(!r.stderr.contains("Missing value") && !r.stderr.contains("missing value"), "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: --strength -5 is out of range: use 0…200"), "\(r.stderr)")
        try Data(try PNGImage.encode(try CorrectCommandTests.photo(1))).write(to: URL(fileURLWithPath: dir + "/in.png"))
        let trim = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/c.png", "--lut", lut,
                                "--look-contrast", "-20", "--auto", "off"])
        #expect(trim.status == 0, "\(trim.stderr)")
    }

    @Test("--help still prints the help on stdout and exits 0; a folder as apply's output says it is a folder")
    func helpAndFolderOutput() throws {
        let help = try CLI.run(["apply", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: lookstudio apply"))
        let (dir, lut) = try CorrectCommandTests.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(try PNGImage.encode(try CorrectCommandTests.photo(2))).write(to: URL(fileURLWithPath: dir + "/in.png"))
        let r = try CLI.run(["apply", "--lut", lut, dir + "/in.png", dir])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(dir): cannot write (it is a folder;"), "\(r.stderr)")
    }
}

/// `--quality` on contact-sheet, the other command that writes a JPEG photo.
@Suite struct ContactSheetQualityTests {
    @Test("contact-sheet --quality sets the sheet's JPEG quality; the sheet may not be one of its images")
    func quality() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try CorrectCommandTests.photo(4), to: dir + "/a.png")
        for q in [40, 95] {
            let r = try CLI.run(["contact-sheet", dir + "/a.png", dir + "/a.png", "-o", dir + "/s\(q).jpg",
                                 "--quality", "\(q)"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(JPEGQuality.estimate(path: dir + "/s\(q).jpg") == q)
        }
        let bad = try CLI.run(["contact-sheet", dir + "/a.png", "-o", dir + "/s.jpg", "--quality", "0"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("error: --quality 0 is out of range"), "\(bad.stderr)")
        let over = try CLI.run(["contact-sheet", dir + "/a.png", "-o", dir + "/a.png"])
        #expect(over.status == 1 && over.stderr.contains("refusing to write"), "\(over.stderr)")
    }

    @Test("control bytes a file carries reach the terminal escaped, in errors as everywhere else")
    func controlBytesInErrorsAreEscaped() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("LUT_3D_SIZE 2\nFOO\u{1B}[31mRED\n".utf8).write(to: URL(fileURLWithPath: dir + "/esc.cube"))
        try Data(repeating: 0, count: 100).write(to: URL(fileURLWithPath: dir + "/nul.cube"))
        for file in ["esc.cube", "nul.cube"] {
            let r = try CLI.run(["inspect", dir + "/" + file])
            #expect(r.status == 1, "\(file): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: "), "\(file): \(r.stderr)")
            let raw = r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }
            #expect(!raw, "\(file): \(r.stderr.debugDescription)")
        }
        #expect(try CLI.run(["inspect", dir + "/esc.cube"]).stderr.contains("\\u{1B}[31mRED"))
    }
}

/// Mistyped names, subcommands and short GUID prefixes are answered with what was probably meant.
@Suite struct DidYouMeanTests {
    @Test("a mistyped look name, plugin id and subcommand each get a suggestion; a short GUID prefix says so")
    func suggestions() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let look = try CLI.run(["looks", "show", "Warm Flim"] + catalog)
        #expect(look.status == 1 && look.stderr.contains("did you mean \"Warm Film\"?"), "\(look.stderr)")
        let short = try CLI.run(["looks", "show", "7C7C39"] + catalog)
        #expect(short.status == 1 && short.stderr.contains("a GUID prefix needs at least 8 hex digits"),
                "\(short.stderr)")
        let plugin = try CLI.run(["plugins", "describe", "tone.contrst"])
        #expect(plugin.status != 0 && plugin.stderr.contains("did you mean \"tone.contrast\"?"), "\(plugin.stderr)")
        let command = try CLI.run(["lokos", "list"])
        #expect(command.status == 64 && command.stderr.contains("did you mean 'looks'?"), "\(command.stderr)")
        let sub = try CLI.run(["looks", "revrt", "X@1"])
        #expect(sub.status == 64 && sub.stderr.contains("did you mean 'revert'?"), "\(sub.stderr)")
    }
}
