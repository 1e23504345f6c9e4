import ArgumentParser
import LookCore
import LookFormats

/// `lookstudio inspect`: what a LUT file is, and its quirks.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a LUT file: format and dialect, sizes, domains, value range, distance from identity, quirks.",
        discussion: """
        Every deviation from the format's rules that LookStudio tolerates (lowercase keywords, unquoted TITLE, \
        DOMAIN_* after the size, comments between rows, values outside 0…1, …) is listed with its line.
        The distance from identity is measured over a 33³ grid of inputs, in 8-bit code values.

        Examples:
          lookstudio inspect film.cube
          lookstudio inspect --json lookup.png
        """
    )

    @Argument(help: ArgumentHelp("LUT file (.cube, .3dl, .png).", valueName: "file"))
    var file: String

    @Option(help: "Layout of a PNG: auto, tiled, strip or hald.")
    var layout: LayoutChoice = .auto

    @Flag(help: "Print one JSON object (documented in README.md).")
    var json = false

    func run() throws {
        let inspection = try LUTInspection.inspect(path: file, layout: layout.layout)
        // The text quotes the file (TITLE, unknown keywords): escaped, so a downloaded LUT cannot steer the terminal.
        print(json ? try jsonString(inspection) : MessageText.quote(inspection.text, keepNewlines: true))
    }
}
