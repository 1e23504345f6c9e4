import Foundation
import LookCore
import ImageIO
import LookFormats

/// The looks shipped in `Looks/`, generated from the colour functions below by
/// `lookstudio looks render-shipped --out Looks/` (`make looks`), so every PNG can be rebuilt and reviewed.
///
/// GUIDs are fixed: they are the looks' identity on every install and must never change.
public enum ShippedLooks {
    /// One shipped look: its identity, metadata and colour function.
    public struct Definition: Sendable {
        public var guid: String
        public var name: String
        /// File stem in Looks/ (`STEM.png`, `STEM.yaml`).
        public var stem: String
        public var description: String
        public var tags: [String]
        public var transform: @Sendable (SIMD3<Float>) -> SIMD3<Float>
    }

    /// Cube size of the shipped looks (tiled 512×512 PNG).
    public static let size = 64

    /// All shipped looks, in a fixed order.
    public static let all: [Definition] = [
        Definition(guid: "2DA54C60-1F05-4E56-A1FF-9B21A272704C", name: "Red Filter B&W", stem: "red-filter-bw",
                   description: "High-contrast black and white as through a red filter: skies go dark, skin goes light.",
                   tags: ["black-and-white", "classic", "high-contrast"], transform: redFilterBW),
        Definition(guid: "67A95B91-8F9B-4F0C-BA74-6E6B0228609B", name: "Hot Black Infrared", stem: "hot-black-infrared",
                   description: "Inverted thermal-camera monochrome (\"black hot\"): bright, warm subjects render dark.",
                   tags: ["black-and-white", "infrared", "effect"], transform: hotBlackInfrared),
        Definition(guid: "887A3B95-9F89-4605-A509-254B653619FB", name: "Cyanotype", stem: "cyanotype",
                   description: "Prussian-blue monochrome of the cyanotype print process, from deep blue to pale cyan.",
                   tags: ["monochrome", "blue", "classic"], transform: cyanotype),
        Definition(guid: "056477AC-1037-488A-A7F6-3945B026FF46", name: "Night Vision", stem: "night-vision",
                   description: "Green phosphor monochrome with low contrast and lifted blacks, like an image intensifier.",
                   tags: ["monochrome", "green", "effect"], transform: nightVision),
        Definition(guid: "7C7C394C-2638-4347-8CE1-CE2AB19D0EFB", name: "Warm Film", stem: "warm-film",
                   description: "Warm print-film look: lifted blacks, soft highlight roll-off, gentle warmth and muted saturation.",
                   tags: ["film", "warm"], transform: warmFilm),
        Definition(guid: "60E7C753-8F72-4ACE-AD72-108D6F5E4C3A", name: "Teal & Orange", stem: "teal-orange",
                   description: "Blockbuster split toning: shadows pushed to teal, skin tones and highlights to orange.",
                   tags: ["cinematic", "split-tone"], transform: tealOrange),
    ]

    // MARK: Colour functions (pure, inputs and outputs in 0…1)

    /// Rec. 709 luma, the weights used for "brightness" throughout.
    @inlinable
    public static func luma(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

    /// A smooth S-curve around 0.5 with `amount` 0 (none) to 1 (strong), fixed at 0 and 1.
    @inlinable
    public static func sCurve(_ x: Float, amount: Float) -> Float {
        let s = x * x * (3 - 2 * x)
        return clamp(x + amount * (s - x))
    }

    @inlinable
    static func clamp(_ x: Float) -> Float { min(max(x, 0), 1) }

    /// Monochrome mix of a red filter (Wratten 25 passes red, blocks most blue), then a strong S-curve.
    @Sendable public static func redFilterBW(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let y = sCurve(clamp(0.85 * c.x + 0.2 * c.y - 0.05 * c.z), amount: 0.9)
        return SIMD3(repeating: y)
    }

    /// Inverted luminance with red weighted up, since warm (red) surfaces read as hot.
    @Sendable public static func hotBlackInfrared(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let heat = clamp(0.5 * c.x + 0.4 * c.y + 0.1 * c.z)
        return SIMD3(repeating: sCurve(1 - heat, amount: 0.5))
    }

    /// Luminance mapped onto a gradient from Prussian blue to paper-white cyan; blue stays the largest channel.
    @Sendable public static func cyanotype(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let y = sCurve(luma(c), amount: 0.3)
        let dark = SIMD3<Float>(0.02, 0.12, 0.30), light = SIMD3<Float>(0.82, 0.92, 0.98)
        return dark + y * (light - dark)
    }

    /// Luminance compressed into 0.08…0.75 and tinted phosphor green.
    @Sendable public static func nightVision(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let y = 0.08 + 0.67 * luma(c)
        return SIMD3(0.30 * y, y, 0.25 * y)
    }

    /// Black lift, highlight shoulder, +warmth (red up, blue down) and 20% less saturation.
    @Sendable public static func warmFilm(_ c: SIMD3<Float>) -> SIMD3<Float> {
        var v = SIMD3(0.04, 0.03, 0.02) + c * SIMD3(0.96, 0.94, 0.86)
        let y = luma(v)
        v = SIMD3(repeating: y) + 0.8 * (v - SIMD3(repeating: y))
        // Shoulder: 1 - (1-x)^1.4 rolls highlights off gently while keeping 0 → 0 and 1 → 1.
        return SIMD3(shoulder(v.x), shoulder(v.y), shoulder(v.z))
    }

    @inlinable
    static func shoulder(_ x: Float) -> Float { clamp(1 - powf(1 - clamp(x), 1.15)) }

    /// Shadows toward teal, highlights toward orange, weighted by luminance, plus a mild S-curve.
    @Sendable public static func tealOrange(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let y = luma(c)
        let teal = SIMD3<Float>(-0.06, 0.03, 0.07), orange = SIMD3<Float>(0.08, 0.02, -0.07)
        let shadowWeight = (1 - y) * (1 - y), highlightWeight = y * y
        let v = c + shadowWeight * teal + highlightWeight * orange
        return SIMD3(sCurve(clamp(v.x), amount: 0.25), sCurve(clamp(v.y), amount: 0.25),
                     sCurve(clamp(v.z), amount: 0.25))
    }

    // MARK: Rendering

    /// The cube of a shipped look.
    public static func cube(_ look: Definition) throws -> ColorCube {
        try ColorCube(size: size, transform: look.transform)
    }

    /// The YAML metadata file written beside the PNG.
    public static func yaml(_ look: Definition) -> String {
        func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        return """
            # Generated by `lookstudio looks render-shipped` from Sources/LookCatalog/ShippedLooks.swift; do not edit.
            guid: \(look.guid)
            name: \(quoted(look.name))
            description: \(quoted(look.description))
            tags: [\(look.tags.map(quoted).joined(separator: ", "))]
            file: \(look.stem).png
            size: \(size)
            layout: tiled

            """
    }

    /// Writes every shipped look to `directory` as `STEM.png` (16-bit tiled) and `STEM.yaml`; returns the paths.
    @discardableResult
    public static func render(to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for look in all {
            let png = "\(directory)/\(look.stem).png", yamlPath = "\(directory)/\(look.stem).yaml"
            try CubeImage.write(try cube(look), to: png, layout: .tiled, depth: .sixteen)
            try AtomicFile.write(Data(yaml(look).utf8), to: yamlPath)
            written += [png, yamlPath]
        }
        return written
    }
}
