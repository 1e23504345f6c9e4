import Foundation
import ImageIO
import LookCore

/// Where the pipeline's output colours go.
public enum OutputColor: Sendable, Equatable {
    /// The input's own space, its description written unchanged (the default; `--output-profile keep`).
    case input
    /// Converted into this profile, which is written to the output.
    case profile(ColorProfile)

    /// Parses `--output-profile`: srgb, display-p3, adobe-rgb, rec2020, keep, or a path to an ICC file.
    public static func parse(_ word: String) throws -> OutputColor {
        if word.lowercased() == "keep" { return .input }
        return .profile(try ImageColor.profile(named: word))
    }
}

/// Colour-management settings for a pipeline run.
public struct ColorSettings: Sendable {
    /// The look's working space (sRGB unless the look says otherwise).
    public var workingSpace = ColorProfile(.sRGB)
    /// The output's space.
    public var output: OutputColor = .input
    /// How out-of-gamut colours are handled.
    public var intent: RenderingIntent = .relativeColorimetric
    /// Grid of the composed cube when the input is converted.
    public var gridSize = ColorManagedLook.defaultGridSize
    /// The look is applied to the stored codes as they are, whatever the image's profile says: no conversion into
    /// the working space and back, the output described as the input is (`output` must be `.input`).
    public var rawCodes = false

    /// sRGB look, output in the input's space, relative colorimetric.
    public init() {}
}

/// Maps colour descriptions (data from ImageIO) to profiles (ColorManagement), and back for writing.
public enum ImageColor {
    /// The profile a command-line word names: a named space or an ICC file.
    public static func profile(named word: String) throws -> ColorProfile {
        if ColorProfile.Named(argument: word) == nil, word.contains("/") || word.lowercased().hasSuffix(".icc")
            || word.lowercased().hasSuffix(".icm") {
            guard let data = FileManager.default.contents(atPath: word).map({ [UInt8]($0) }) else {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: word, isDirectory: &isFolder), isFolder.boolValue {
                    throw ColorManagementError.unusableProfile(file: word,
                                                               message: "it is a folder, not an ICC file")
                }
                throw ColorManagementError.unreadableProfile(path: word)
            }
            do {
                return try ColorProfile(iccData: data, source: word)
            } catch {
                throw ColorManagementError.unusableProfile(file: word, message: "\(error.reasonText)")
            }
        }
        return try ColorProfile.named(word)
    }

    /// The profile an image's description means, and a warning when part of it was ignored.
    ///
    /// Untagged means sRGB. A profile LittleCMS cannot parse is an error (guessing would grade wide-gamut pixels
    /// as sRGB); a parseable profile that is not RGB (a grey profile on a grey PNG delivered as RGB) falls back to
    /// sRGB with a warning. gAMA 1/2.2 with sRGB or no cHRM is read as sRGB, as libpng treats it.
    public static func profile(for color: ColorDescription, file: String) throws -> (ColorProfile, String?) {
        if let refused = color.refusedICCProfile, color.iccProfile == nil {
            var uncarried = color
            uncarried.refusedICCProfile = nil
            let (profile, other) = try self.profile(for: uncarried, file: file)
            let warning = "\(file): its ICC profile (iCCP chunk) was refused by libpng (\(refused)); reading the pixels "
                + "as \(profile.description)"
            return (profile, other.map { warning + "; " + $0 } ?? warning)
        }
        if let icc = color.iccProfile {
            if icc.colorSpace != nil, icc.colorSpace != "RGB " {
                return (ColorProfile(.sRGB), "\(file): its \(icc.colorSpace!.trimmingCharacters(in: .whitespaces)) "
                        + "ICC profile does not describe RGB pixels; reading them as sRGB")
            }
            do {
                return (try ColorProfile(iccData: icc.data, source: file), nil)
            } catch {
                throw ColorManagementError.unusableProfile(file: file, message: "its embedded \(error.reasonText)")
            }
        }
        if color.srgbIntent != nil { return (ColorProfile(.sRGB), nil) }
        if color.gamma != nil || color.chromaticities != nil {
            return try pngProfile(gamma: color.gamma, chromaticities: color.chromaticities, file: file)
        }
        if let c = color.codePoints { return codePointProfile(c, file: file) }
        return (ColorProfile(.sRGB), nil)
    }

    /// The description to write for an output converted into `profile`: for sRGB the PNG sRGB chunk (formats
    /// that can only carry an ICC profile are then written untagged, which every reader takes as sRGB), else the
    /// ICC profile under its own name.
    public static func description(for profile: ColorProfile) -> ColorDescription {
        if profile.named == .sRGB { return .sRGB }
        return ColorDescription(iccProfile: PNGColorMetadata.ICCProfile(name: profile.description, data: profile.data))
    }

    /// Reads `path`'s header and checks its colour description as `info` and `apply` do: throws for a profile
    /// LittleCMS rejects, returns the warning for one read as sRGB instead.
    public static func checkProfile(path: String, maxPixels: Int) throws -> String? {
        try profile(for: ImageFormat.info(path: path, maxPixels: maxPixels).color, file: path).1
    }

    /// An 8-bit preview converted into sRGB; unchanged when the image is sRGB or untagged, or when its description
    /// cannot be used (the pipeline reports that error itself).
    public static func previewInSRGB(_ preview: PixelBuffer, color: ColorDescription, file: String) -> PixelBuffer {
        guard !color.isUntagged, color.srgbIntent == nil, case .eight(let samples) = preview.samples,
              let (profile, _) = try? ImageColor.profile(for: color, file: file),
              !profile.isEquivalent(to: ColorProfile(.sRGB)),
              let transform = try? ColorTransform(from: profile, to: ColorProfile(.sRGB)) else { return preview }
        let c = preview.channels
        var rgb = [Float](repeating: 0, count: samples.count / c * 3)
        for i in 0..<(samples.count / c) {
            for k in 0..<3 { rgb[3 * i + k] = Float(samples[c * i + k]) / 255 }
        }
        rgb.withUnsafeMutableBufferPointer { transform.convert($0) }
        var out = samples
        for i in 0..<(samples.count / c) {
            for k in 0..<3 { out[c * i + k] = UInt8((min(max(rgb[3 * i + k], 0), 1) * 255).rounded()) }
        }
        return (try? PixelBuffer(width: preview.width, height: preview.height, channels: c, samples: .eight(out)))
            ?? preview
    }

    private static func pngProfile(gamma: Int32?, chromaticities: PNGColorMetadata.Chromaticities?,
                                   file: String) throws -> (ColorProfile, String?) {
        let c = chromaticities ?? .sRGB
        let g = gamma ?? 45_455
        let s = PNGColorMetadata.Chromaticities.sRGB
        let srgbPrimaries = zip([c.whiteX, c.whiteY, c.redX, c.redY, c.greenX, c.greenY, c.blueX, c.blueY],
                                [s.whiteX, s.whiteY, s.redX, s.redY, s.greenX, s.greenY, s.blueX, s.blueY])
            .allSatisfy { abs($0 - $1) <= 1000 }
        if srgbPrimaries, abs(Int(g) - 45_455) <= 455 { return (ColorProfile(.sRGB), nil) }
        guard g > 0 else { return (ColorProfile(.sRGB), "\(file): gAMA 0 is invalid; reading the pixels as sRGB") }
        func xy(_ x: Int32, _ y: Int32) -> SIMD2<Double> { SIMD2(Double(x), Double(y)) / 100_000 }
        do {
            let profile = try ColorProfile.rgb(white: xy(c.whiteX, c.whiteY), red: xy(c.redX, c.redY),
                                               green: xy(c.greenX, c.greenY), blue: xy(c.blueX, c.blueY),
                                               curve: .gamma(100_000 / Double(g)),
                                               description: "PNG gAMA \(Double(g) / 100_000) + cHRM")
            return (profile, nil)
        } catch {
            return (ColorProfile(.sRGB), "\(file): its gAMA/cHRM chunks do not make a colour space; reading as sRGB")
        }
    }

    private static func codePointProfile(_ c: ColorDescription.CodePoints, file: String) -> (ColorProfile, String?) {
        let primaries: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
        var warning: String?
        switch c.primaries {
        case 9: primaries = (SIMD2(0.708, 0.292), SIMD2(0.170, 0.797), SIMD2(0.131, 0.046))
        case 12: primaries = (SIMD2(0.680, 0.320), SIMD2(0.265, 0.690), SIMD2(0.150, 0.060))
        case 1, 2: primaries = (SIMD2(0.64, 0.33), SIMD2(0.30, 0.60), SIMD2(0.15, 0.06))
        default:
            primaries = (SIMD2(0.64, 0.33), SIMD2(0.30, 0.60), SIMD2(0.15, 0.06))
            warning = "\(file): nclx primaries \(c.primaries) are not supported; using sRGB primaries"
        }
        let curve: ColorProfile.ToneCurve
        switch c.transfer {
        case 13, 2: curve = .sRGB
        case 1, 6, 14, 15: curve = .rec709
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .gamma(1)
        default:
            curve = .sRGB
            warning = "\(file): nclx transfer \(c.transfer) (HDR or unknown) is not supported; using the sRGB curve"
        }
        let isSRGB = (c.primaries == 1 || c.primaries == 2) && (c.transfer == 13 || c.transfer == 2)
        if isSRGB { return (ColorProfile(.sRGB), warning) }
        let profile = try? ColorProfile.rgb(white: SIMD2(0.3127, 0.3290), red: primaries.0, green: primaries.1,
                                            blue: primaries.2, curve: curve,
                                            description: "nclx \(c.primaries)/\(c.transfer)")
        return (profile ?? ColorProfile(.sRGB), warning)
    }
}

extension Error {
    /// The message without the profile's own source (callers name the file themselves).
    var reasonText: String {
        if let error = self as? ColorManagementError, case .rejectedProfile(_, let reason) = error { return "ICC profile is not usable (\(reason))" }
        return "\(self)"
    }
}
