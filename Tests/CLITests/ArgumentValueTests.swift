import Foundation
import LookStudioTestSupport
import Testing

/// Bad option values are argument errors (exit 64, `error:` and the help hint) before any work. Before, `bench`
/// crashed on them (division by zero, a Double→Int trap, a 300 GB allocation) or ran `--repeat 0` as 1, and
/// `convert`, `export` and `--plugin-timeout` found theirs while running (exit 1).
@Suite struct ArgumentValueTests {
    /// The run was refused as an argument error whose first line starts with `message`.
    private static func expectUsageError(_ arguments: [String], _ message: String,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("error: " + message), "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains("see 'lookstudio "), "\(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func benchRefusesMegapixelsRepeatsAndSizesOutOfRange() throws {
        let megapixels = "is out of range: use 0.01…250 megapixels"
        try Self.expectUsageError(["bench", "apply", "--megapixels", "0", "--repeat", "1"],
                                  "--megapixels 0 " + megapixels)
        try Self.expectUsageError(["bench", "apply", "--megapixels", "-1"], "--megapixels -1 " + megapixels)
        try Self.expectUsageError(["bench", "apply", "--megapixels", "100000"], "--megapixels 100000 " + megapixels)
        try Self.expectUsageError(["bench", "apply", "--megapixels", "nan"], "--megapixels nan " + megapixels)
        try Self.expectUsageError(["bench", "pipeline", "--megapixels", "0"], "--megapixels 0 " + megapixels)
        try Self.expectUsageError(["bench", "all", "--large-megapixels", "-1"], "--large-megapixels -1 " + megapixels)
        try Self.expectUsageError(["bench", "compose", "--megapixels", "300"], "--megapixels 300 " + megapixels)
        for command in ["apply", "all", "compose"] {
            try Self.expectUsageError(["bench", command, "--repeat", "0"], "--repeat 0 is out of range")
            try Self.expectUsageError(["bench", command, "--repeat", "-1"], "--repeat -1 is out of range")
        }
        for command in ["apply", "all", "pipeline", "compose"] {
            try Self.expectUsageError(["bench", command, "--size", "1"], "--size 1 is out of range: use 2…256")
            try Self.expectUsageError(["bench", command, "--size", "300"], "--size 300 is out of range: use 2…256")
        }
    }

    @Test func benchRefusesEveryOtherSubcommandsBadNumbers() throws {
        let photo = CLI.fixtures + "/reference/chart.png"
        try Self.expectUsageError(["bench", "extract", "--width", "0"], "--width 0 --height 3000: give at least 1×1")
        try Self.expectUsageError(["bench", "extract", "--width", "100000", "--height", "100000"], "--width 100000")
        try Self.expectUsageError(["bench", "extract", "--jpeg-quality", "0"], "--jpeg-quality 0 is out of range")
        try Self.expectUsageError(["bench", "extract", "--repeat", "0"], "--repeat 0 is out of range")
        try Self.expectUsageError(["bench", "extract-eval", "--long-side", "0", photo], "--long-side 0 is out of range")
        try Self.expectUsageError(["bench", "extract-eval", "--variant", "bogus", photo],
                                  "--variant must be one of clean, vignette, brush, jpeg-q85, noise, webp-q85, "
                                      + "heic-q85, avif-q85; got bogus")
        try Self.expectUsageError(["bench", "correct", "--long-side", "0"], "--long-side 0 is out of range")
        try Self.expectUsageError(["bench", "correct", "--limit", "-1"], "--limit -1 is out of range")
        try Self.expectUsageError(["bench", "correct", "--auto", "-5"], "--auto -5 is out of range")
        try Self.expectUsageError(["bench", "correct", "--rows", "/nonexistent-folder/rows.tsv"],
                                  "--rows /nonexistent-folder/rows.tsv: cannot write into /nonexistent-folder")
        try Self.expectUsageError(["bench", "correct", "--rows", "rows.tsv", "photo.png"],
                                  "--rows goes with the realistic evaluation")
        try Self.expectUsageError(["bench", "correct", "--shoots", "photo.png"], "--shoots reads shoot cases")
        try Self.expectUsageError(["bench", "correct", "--json"], "--json goes with --shoots")
        try Self.expectUsageError(["bench", "gallery", "--size", "0", photo], "--size 0 is out of range: use 16…8192")
    }

    @Test func convertRefusesSizesAndBitsTheFormatCannotTake() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = CLI.fixtures + "/reference/warm33.cube"
        try Self.expectUsageError(["convert", lut, dir + "/y.cube", "--size", "1"], "--size 1 is out of range")
        try Self.expectUsageError(["convert", lut, dir + "/y.cube", "--size", "300"], "--size 300 is out of range")
        try Self.expectUsageError(["convert", lut, dir + "/y.png", "--bits", "12"],
                                  "--bits 12: a PNG stores 8 or 16 bits")
        try Self.expectUsageError(["convert", lut, dir + "/y.3dl", "--bits", "8"],
                                  "--bits 8: a .3dl stores 10-, 12- or 16-bit output")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        #expect(try CLI.run(["convert", lut, dir + "/y.3dl", "--bits", "10"]).status == 0)
    }

    @Test func exportRefusesASizeOrTargetTheTargetCannotTake() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        try Self.expectUsageError(["export", "Warm Film", "--for", "camera-33", "--size", "65", "-o", dir + "/c.cube"]
                                  + catalog, "export for camera-33: size 65 is not accepted")
        try Self.expectUsageError(["export", "Warm Film", "--for", "nope", "-o", dir + "/c.cube"] + catalog,
                                  "export for nope: unknown target")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func pluginMemoryIsNamedByItsOptionAndTheVariableByItsName() throws {
        try Self.expectUsageError(["plugins", "list", "--plugin-memory", "100"],
                                  "--plugin-memory 100: use a whole number of MiB from 256 to 1048576, such as 8192")
        let r = try CLI.run(["plugins", "list"], environment: ["LOOKSTUDIO_PLUGIN_MEMORY": "100"])
        #expect(r.status == 64 && r.stderr.hasPrefix("error: $LOOKSTUDIO_PLUGIN_MEMORY: the plugin host's memory cap "
                                                     + "must be a whole number of MiB from 256 to 1048576"),
                "\(r.stderr)")
    }

    @Test func pluginTimeoutMustBePositiveWhereverItIsGiven() throws {
        let message = "--plugin-timeout must be a number of seconds above 0 and at most 86400, such as 30 or 2.5 "
            + "(got \"0\")"
        try Self.expectUsageError(["--plugin-timeout", "0", "plugins", "list"], message)
        try Self.expectUsageError(["plugins", "list", "--plugin-timeout", "0"], message)
        try Self.expectUsageError(["compose", "r.yaml", "--explain", "--plugin-timeout", "-1"],
                                  "--plugin-timeout must be a number of seconds above 0 and at most 86400, such as 30 "
                                  + "or 2.5 (got \"-1\")")
        try Self.expectUsageError(["plugins", "list", "--plugin-timeout", "1e300"], "--plugin-timeout must be")
    }

    @Test func pluginTimeoutVariableIsAUsageErrorNamingItInEveryCommand() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for value in ["0", "-1", "soon", "1e300"] {
            for arguments in [["plugins", "list"], ["looks", "list", "--catalog", dir + "/c.sqlite"]] {
                let r = try CLI.run(arguments, environment: ["LOOKSTUDIO_PLUGIN_TIMEOUT": value])
                #expect(r.status == 64, "\(value) \(arguments): \(r.stderr)")
                #expect(r.stderr.hasPrefix("error: LOOKSTUDIO_PLUGIN_TIMEOUT must be a number of seconds above 0 and "
                                           + "at most 86400, such as 30 or 2.5 (got \"\(value)\")\n"), "\(r.stderr)")
                #expect(r.stderr.contains("see 'lookstudio "), "\(r.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "no catalog was created")
        let replaced = try CLI.run(["plugins", "list", "--plugin-timeout", "5"],
                                   environment: ["LOOKSTUDIO_PLUGIN_TIMEOUT": "0"])
        #expect(replaced.status == 0, "the option replaces the variable: \(replaced.stderr)")
        let empty = try CLI.run(["plugins", "list"], environment: ["LOOKSTUDIO_PLUGIN_TIMEOUT": ""])
        #expect(empty.status == 0, "an empty variable is unset: \(empty.stderr)")
    }
}
