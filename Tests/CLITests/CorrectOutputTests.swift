import Foundation
import ImageIO
import LookStudioTestSupport
import Testing

/// Where `correct` writes: outputs that would collide, `-o` as its help describes it, argument ranges, and the
/// `--json` keys that are null rather than missing.
@Suite struct CorrectOutputTests {
    /// A temporary folder with `look.cube`, `o1/x.png` and `o2/x.png` (two different images of one name).
    static func setUp() throws -> (dir: String, lut: String) {
        let (dir, lut) = try CorrectCommandTests.setUp()
        for (i, folder) in ["o1", "o2"].enumerated() {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
            try PNGImage.write(try CorrectCommandTests.photo(i), to: dir + "/\(folder)/x.png")
        }
        return (dir, lut)
    }

    @Test func twoInputsForOneOutputARepeatedInputOrStrengthAreArgumentErrors() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let x1 = dir + "/o1/x.png", x2 = dir + "/o2/x.png"
        let cases: [(arguments: [String], message: String)] = [
            ([x1, x2, "-o", dir + "/out"],
             "error: \(x1) and \(x2) would both be written to \(dir)/out/x.png; give them different names or "
                + "separate runs"),
            ([dir + "/o1", dir + "/o2", "-o", dir + "/out"],
             "error: \(x1) and \(x2) would both be written to \(dir)/out/x.png;"),
            ([x1, x1, "-o", dir + "/out"], "error: \(x1) is given twice, so \(dir)/out/x.png would be written twice"),
            ([x1, dir + "/o1/../o1/x.png", "-o", dir + "/out"], "error: \(x1) is given twice (as \(x1) and "),
            ([dir + "/o1", x1, "-o", dir + "/out"], "error: \(x1) is given twice, so"),
            ([x1, "--in-place", "--no-backup", dir + "/o1/./x.png"], "error: \(x1) is given twice"),
            ([x1, "-o", dir + "/out", "--strength", "50,50"], "error: --strength 50,50: 50 is given twice"),
            ([x1, "-o", dir + "/out", "--strength", "50,,60"], "error: --strength 50,,60: expected numbers"),
        ]
        let before = try Data(contentsOf: URL(fileURLWithPath: x1))
        for (arguments, message) in cases {
            let r = try CLI.run(["correct"] + arguments + ["--lut", lut, "--auto", "off"])
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix(message), "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out"), "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: x1)) == before, "the in-place input was left alone")
        let distinct = try CLI.run(["correct", x1, "-o", dir + "/out", "--strength", "50,60", "--lut", lut,
                                    "--auto", "off"])
        #expect(distinct.status == 0, "\(distinct.stderr)")
    }

    @Test func oneImageGoesToTheFileOUTUnlessOUTIsAFolderOrEndsInASlash() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let x1 = dir + "/o1/x.png"
        let run = { (arguments: [String]) in try CLI.run(["correct"] + arguments + ["--lut", lut, "--auto", "off"]) }
        var r = try run([x1, "-o", dir + "/result.txt"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: \(dir)/result.txt: not an image file name; end it with .png, .jpg"),
                "\(r.stderr)")
        #expect(r.stderr.contains("or with / to write into a folder of that name"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/result.txt"), "neither a folder nor a file")
        let text = dir + "/afile"
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: text))
        r = try run([x1, "-o", text])
        #expect(r.status == 1 && r.stderr.hasPrefix("error: \(text): not an image file name"), "\(r.stderr)")
        r = try run([x1, "--strength", "40,50", "-o", text])
        #expect(r.status == 1)
        #expect(r.stderr == "error: \(text): cannot create the output folder (it is a regular file, not a folder)\n",
                "\(r.stderr)")
        r = try run([dir + "/o1", "-o", text + "/sub"])
        #expect(r.stderr == "error: \(text)/sub: cannot create the output folder (Not a directory)\n", "\(r.stderr)")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "x\n")
        // An existing image file is replaced, as apply replaces its OUT.
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/old.png"))
        r = try run([x1, "-o", dir + "/old.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/old.png").width == 48)
        r = try run([x1, "-o", dir + "/folder/"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/folder/x.png"))
    }

    @Test func lookRangesAndMaxPixelsAreArgumentErrorsBeforeAnyWork() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases = [["--look-strength", "201"], ["--look-strength", "nan"], ["--look-contrast", "-101"],
                     ["--look-saturation", "100.5"], ["--max-pixels", "0"], ["--max-pixels", "-5"]]
        for args in cases {
            let r = try CLI.run(["correct", dir + "/o1/x.png", "-o", dir + "/o.png", "--lut", lut] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(args[0]) "), "\(args): \(r.stderr)")
            #expect(r.stderr.hasSuffix("see 'lookstudio correct --help'\n"), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }

    @Test func theJSONWritesThePlansNullableKeysAsNull() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try CorrectCommandTests.photo(5, width: 1, height: 1), to: dir + "/b1x1.png")
        let r = try CLI.run(["correct", dir + "/b1x1.png", "-o", dir + "/cj.png", "--lut", lut, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        let auto = try #require(array?.first?["auto"] as? [String: Any])
        let wb = try #require(auto["white_balance"] as? [String: Any])
        #expect(wb["skin"] is NSNull && wb["bright_achromatic"] is NSNull, "\(wb)")
        #expect((auto["exposure"] as? [String: Any])?["face_key"] is NSNull, "\(auto)")
        #expect(auto["model"] is String)
        #expect(array?.first?["look_guid"] is NSNull)
    }
}
