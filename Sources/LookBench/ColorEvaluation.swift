import ColorManagement
import Foundation
import ImageIO
import LookCore
import Rendering

/// Measures how close the pipeline's colour-managed output is to the ideal answer, on a real photo re-encoded in a
/// wide-gamut space (what a Display P3 phone or an Adobe RGB camera would have written).
///
/// The photo (read as sRGB) is converted into `space` in Float and rounded to 8 bits: that tagged image is the
/// input. The ideal answer converts it per pixel in Float (space → look's sRGB working space → look → space); it is
/// compared in CIEDE2000 with the pipeline's 8-bit output, with the raw-code result (the look applied to the tagged
/// codes as before colour management), and with the ideal answer itself rounded to 8 bits (the floor).
public enum ColorEvaluation {
    /// The figures for one photo in one space.
    public struct Result: Sendable {
        /// The photo.
        public var file: String
        /// The space it was re-encoded in.
        public var space: ColorProfile.Named
        /// Pipeline (composed cube, 8-bit output) against the ideal answer.
        public var managed: ColorAccuracy.Summary
        /// The look applied to the raw codes against the ideal answer.
        public var unmanaged: ColorAccuracy.Summary
        /// The ideal answer rounded to 8 bits against itself: the requantisation floor.
        public var floor: ColorAccuracy.Summary
    }

    /// Runs the comparison for `photo` in `space` with a look authored in sRGB; `scratch` is a folder for files.
    public static func measure(photo: String, space: ColorProfile.Named, look: ColorCube,
                               scratch: String) throws -> Result {
        let decoded = try ImageFormat.readImage(path: photo)
        let source = decoded.pixels
        let profile = ColorProfile(space)
        var encoded = floats(source)
        let toSpace = try ColorTransform(from: ColorProfile(.sRGB), to: profile)
        encoded.withUnsafeMutableBufferPointer { toSpace.convert($0) }
        let tagged = try PixelBuffer(width: source.width, height: source.height, channels: 3,
                                     samples: .eight(encoded.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }))
        let input = "\(scratch)/input-\(space.rawValue).png"
        let managedPath = "\(scratch)/managed-\(space.rawValue).png"
        let rawPath = "\(scratch)/raw-\(space.rawValue).png"
        try PNGImage.write(tagged, to: input, colorMetadata: PNGColorMetadata(
            iccProfile: .init(name: profile.description, data: profile.data)))
        try ImagePipeline.apply(look, input: input, output: managedPath)
        try ImagePipeline.apply(CubeApplier(cube: look), input: input, output: rawPath)
        var ideal = floats(tagged)
        try ColorManagedLook(look: look, workingSpace: ColorProfile(.sRGB))
            .applyPerPixel(&ideal, input: profile, output: profile)
        let rounded = ideal.map { ($0 * 255).rounded() / 255 }
        func compare(_ other: [Float]) throws -> ColorAccuracy.Summary {
            ColorAccuracy.Summary(try ColorAccuracy.differences(ideal, other, in: profile))
        }
        return Result(file: photo, space: space,
                      managed: try compare(floats(try PNGImage.read(path: managedPath))),
                      unmanaged: try compare(floats(try PNGImage.read(path: rawPath))),
                      floor: try compare(rounded))
    }

    /// RGB samples as 0…1 floats (alpha dropped).
    static func floats(_ image: PixelBuffer) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(image.width * image.height * 3)
        let c = image.channels
        switch image.samples {
        case .eight(let s):
            for i in stride(from: 0, to: s.count, by: c) { out += [Float(s[i]), Float(s[i + 1]), Float(s[i + 2])].map { $0 / 255 } }
        case .sixteen(let s):
            for i in stride(from: 0, to: s.count, by: c) { out += [Float(s[i]), Float(s[i + 1]), Float(s[i + 2])].map { $0 / 65535 } }
        }
        return out
    }
}
