import ColorManagement
import ImageIO

extension SceneAnalysis {
    /// The 8-bit preview converted into sRGB, where scene statistics and their thresholds live; unchanged when the
    /// image is sRGB or untagged, or when its description cannot be used (the pipeline reports that error itself).
    static func inSRGB(_ preview: PixelBuffer, color: ColorDescription, file: String) -> PixelBuffer {
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
}
