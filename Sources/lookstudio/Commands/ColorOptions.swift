import ArgumentParser
import ColorManagement

extension RenderingIntent: ExpressibleByArgument {}

/// The colour-management options `apply` and `correct` share.
struct ColorOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Output colour space: keep (the input's own, its profile written), srgb, display-p3, "
                               + "adobe-rgb, rec2020, or an ICC profile file.", valueName: "space|file.icc"))
    var outputProfile: String = "keep"

    @Option(help: ArgumentHelp("Out-of-gamut colours: relative (relative colorimetric, clipped) or perceptual "
                               + "(where the profile has a perceptual table)."))
    var intent: RenderingIntent = .relativeColorimetric

    func validate() throws {
        if ColorProfile.Named(argument: outputProfile) == nil, outputProfile.lowercased() != "keep",
           !outputProfile.lowercased().hasSuffix(".icc"), !outputProfile.lowercased().hasSuffix(".icm"),
           !outputProfile.contains("/") {
            throw ValidationError("--output-profile \(outputProfile): use keep, srgb, display-p3, adobe-rgb, "
                                  + "rec2020 or a .icc file")
        }
    }

    /// The pipeline settings for a look authored in `workingSpace`.
    func settings(workingSpace: ColorProfile = ColorProfile(.sRGB)) throws -> ColorSettings {
        var settings = ColorSettings()
        settings.workingSpace = workingSpace
        settings.output = try OutputColor.parse(outputProfile)
        settings.intent = intent
        return settings
    }
}
