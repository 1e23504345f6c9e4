import ColorManagement
import Extraction
import Foundation
import ImageIO
import LookCore
import LookFormats

/// Measures look extraction on real looks and photos (docs/EXTRACT.md): each look is applied to one photo, the
/// look is extracted from that pair, and the extracted look is compared by CIEDE2000 with the true look on the
/// pair's own photo and on every other photo, for a clean 8-bit after image, one with a vignette, one with a local
/// brush, and one saved as JPEG quality 85 (or, as a diagnostic, one with Gaussian noise).
public enum ExtractEvaluation {
    /// How the after image was damaged before extraction.
    public enum Variant: String, Sendable, CaseIterable, Codable {
        /// 8-bit PNG export of the look.
        case clean
        /// Corners darkened: gain 1 − 0.4·r², r relative to the corner (a typical editor's post-crop vignette).
        case vignette
        /// A soft ellipse in the upper left brightened by 25 % (a brushed sky or face).
        case brush
        /// The clean after image saved as JPEG quality 85 and read back.
        case jpeg85 = "jpeg-q85"
        /// Independent Gaussian noise of 4 codes per sample, about a JPEG q85's error (3.3–5.0 codes RMS on the
        /// sample photos) without its structure: how much of the JPEG rows' error is noise alone (a diagnostic,
        /// not in the default set).
        case noise
        /// The clean after image saved as lossy WebP, HEIC or AVIF at quality 85 through ImageIO's encoders and
        /// read back (phones and editors export these; on request, not in the default set).
        case webp85 = "webp-q85"
        case heic85 = "heic-q85"
        case avif85 = "avif-q85"

        /// The file extension a variant's after image is saved with before it is read back, if any.
        var savedAs: String? {
            switch self {
            case .jpeg85: "jpg"
            case .webp85: "webp"
            case .heic85: "heic"
            case .avif85: "avif"
            case .clean, .vignette, .brush, .noise: nil
            }
        }

        /// The variants the acceptance figures are measured on (docs/EXTRACT.md); `noise` is run on request.
        public static let standard: [Variant] = [.clean, .vignette, .brush, .jpeg85]
    }

    /// One extraction measured on one photo.
    public struct Case: Sendable, Codable {
        /// The look's file name.
        public var look: String
        /// The photo the pair was made from.
        public var source: String
        /// The after image's variant.
        public var variant: Variant
        /// The photo the extracted look was measured on (the source itself for the own-photo figure).
        public var target: String
        /// Mean ΔE00 of the extracted look from the true look on the target.
        public var mean: Double
        /// 95th-percentile ΔE00.
        public var p95: Double
        /// Share of the 33³ cube's cells the pair covered.
        public var coverage: Double
        /// Share of a typical photo's pixels whose colours the pair showed (`LookFit.typicalCoverage`).
        public var typicalCoverage: Double
        /// Share of the target's pixels whose colours the pair did not show (`ShownColours.unshownShare`): what
        /// `apply --look` notes from a third on.
        public var unshown: Double
        /// Warnings the extraction gave.
        public var warnings: [String]
    }

    /// A photo read as sRGB floats and box-filtered to at most `longSide` pixels on its long side.
    public static func loadPhoto(path: String, longSide: Int = 768) throws -> PairImage {
        let image = try PairImage.load(path: path)
        let scale = min(1, Double(longSide) / Double(max(image.width, image.height)))
        return image.boxResized(width: max(1, Int((Double(image.width) * scale).rounded())),
                                height: max(1, Int((Double(image.height) * scale).rounded())))
    }

    /// A look file's cube (.cube, .3dl or PNG in any layout); LUTs with shapers or domains are baked at 33³.
    public static func loadLook(path: String) throws -> ColorCube {
        // 33³, not the standard bake: the evaluation's figures were taken with this truth (a fit's default lattice
        // is 33³ too), and a finer bake would only add time to every after image.
        try LUTFormat.readCube(path: path, bakeSize: .fixed(33)).cube
    }

    /// The standard deviation of the `noise` variant, in 8-bit codes.
    static let noiseCodes: Float = 4

    /// The after image of `variant` for `look` applied to `photo`.
    public static func after(_ photo: PairImage, look: ColorCube, variant: Variant, scratch: String) throws
        -> PairImage {
        var out = photo.applying(look)
        let w = photo.width, h = photo.height
        let cx = Float(w - 1) / 2, cy = Float(h - 1) / 2
        switch variant {
        case .clean, .jpeg85, .webp85, .heic85, .avif85: break
        case .noise:
            // A fixed-seed generator (64-bit LCG, Box–Muller), so every run and every look sees the same noise.
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            func uniform() -> Float {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (Float(state >> 40) + 0.5) / Float(1 << 24)
            }
            for i in out.rgb.indices {
                let g = (-2 * log(uniform())).squareRoot() * cos(2 * Float.pi * uniform())
                out.rgb[i] = min(1, max(0, out.rgb[i] + noiseCodes / 255 * g))
            }
        case .vignette:
            for y in 0..<h {
                for x in 0..<w {
                    let dx = Float(x) - cx, dy = Float(y) - cy
                    let g = 1 - 0.4 * (dx * dx + dy * dy) / (cx * cx + cy * cy)
                    for c in 0..<3 { out.rgb[3 * (y * w + x) + c] *= g }
                }
            }
        case .brush:
            let ex = 0.3 * Float(w), ey = 0.25 * Float(h), rx = 0.2 * Float(w), ry = 0.15 * Float(h)
            for y in 0..<h {
                for x in 0..<w {
                    let u = (Float(x) - ex) / rx, v = (Float(y) - ey) / ry
                    let mask = max(0, min(1, 2 * (1 - u * u - v * v)))
                    for c in 0..<3 {
                        let i = 3 * (y * w + x) + c
                        out.rgb[i] = min(1, out.rgb[i] * (1 + 0.25 * mask))
                    }
                }
            }
        }
        out = out.quantized8
        if let ext = variant.savedAs {
            let path = scratch + "/after-\(UUID().uuidString).\(ext)"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try ImageFormat.write(try out.pixels8(), to: path, jpegQuality: 85)
            out = try PairImage.load(path: path)
        }
        return out
    }

    /// Mean and 95th percentile of ΔE00 between two images of one size (sRGB), every pixel.
    ///
    /// The percentile comes from a histogram of 0.001 ΔE00 bins rather than a sort, which was 40 % of the
    /// evaluation's time (perf) in a debug build.
    public static func difference(_ a: PairImage, _ b: PairImage) throws -> (mean: Double, p95: Double) {
        let d = try ColorAccuracy.differences(a.rgb, b.rgb, in: ColorProfile(.sRGB))
        let binsPerUnit = 1000.0, bins = 100_000
        var histogram = [Int](repeating: 0, count: bins + 1)
        var sum = 0.0
        for v in d {
            sum += v
            histogram[min(bins, Int(v * binsPerUnit))] += 1
        }
        let rank = Int((0.95 * Double(d.count - 1)).rounded(.up))
        var seen = 0, p95 = Double(bins) / binsPerUnit
        for (k, count) in histogram.enumerated() {
            seen += count
            if seen > rank { p95 = (Double(k) + 0.5) / binsPerUnit; break }
        }
        return (d.isEmpty ? 0 : sum / Double(d.count), p95)
    }

    /// Runs every look × source photo × variant (photos named in `targetOnly` are measured on, never a source);
    /// `dump` (a folder) also receives raw float32 RGB files, the fitted cubes and a
    /// manifest for scripts/extract/polynomial.py's comparison.
    public static func run(looks: [(name: String, cube: ColorCube)], photos: [(name: String, image: PairImage)],
                           variants: [Variant] = Variant.standard, targetOnly: Set<String> = [], dump: String? = nil,
                           progress: (String) -> Void = { _ in }) throws -> [Case] {
        let scratch = dump ?? NSTemporaryDirectory()
        if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
        var manifest: [[String: String]] = []
        func save(_ image: PairImage, _ name: String) throws -> String {
            guard let dump else { return "" }
            let data = image.rgb.withUnsafeBufferPointer { Data(buffer: $0) }
            try data.write(to: URL(fileURLWithPath: dump + "/" + name + ".f32"))
            return name + ".f32"
        }
        var photoFiles: [String: String] = [:]
        for p in photos { photoFiles[p.name] = try save(p.image, "photo-" + p.name) }
        var cases: [Case] = []
        for look in looks {
            // Clamped as any file `apply` writes is: a look with entries below 0 (kdenlive's TEAL_ORANGE) would
            // otherwise be judged on negative colours no image shows and no stored look can hold.
            let truths = photos.map { truth in
                var image = truth.image.applying(look.cube)
                for i in image.rgb.indices { image.rgb[i] = min(max(image.rgb[i], 0), 1) }
                return image
            }
            var truthFiles: [String] = []
            for (k, p) in photos.enumerated() { truthFiles.append(try save(truths[k], "true-\(look.name)-\(p.name)")) }
            for source in photos where !targetOnly.contains(source.name) {
                for variant in variants {
                    progress("\(look.name) from \(source.name) (\(variant.rawValue))")
                    let after = try after(source.image, look: look.cube, variant: variant, scratch: scratch)
                    let afterFile = try save(after, "after-\(look.name)-\(source.name)-\(variant.rawValue)")
                    let fit = try LookExtractor.fit(pairs: [(source.image, after)], names: [source.name])
                    for (t, target) in photos.enumerated() {
                        let d = try difference(target.image.applying(fit.cube), truths[t])
                        cases.append(Case(look: look.name, source: source.name, variant: variant,
                                          target: target.name, mean: d.mean, p95: d.p95, coverage: fit.coverage,
                                          typicalCoverage: fit.typicalCoverage,
                                          unshown: fit.shownColours.unshownShare(of: target.image.rgb),
                                          warnings: fit.warnings))
                    }
                    if let dump {
                        // The fitted cube too, for scripts that post-process a fit (scripts/extract/look-prior.py).
                        let fitFile = "fit-\(look.name)-\(source.name)-\(variant.rawValue).f32"
                        try fit.cube.values.withUnsafeBufferPointer { Data(buffer: $0) }
                            .write(to: URL(fileURLWithPath: dump + "/" + fitFile))
                        manifest.append(["look": look.name, "source": source.name, "variant": variant.rawValue,
                                         "after": afterFile, "width": "\(source.image.width)",
                                         "height": "\(source.image.height)", "fit": fitFile,
                                         "fit_size": "\(fit.cube.size)"])
                    }
                }
            }
            if dump != nil {
                for (k, p) in photos.enumerated() {
                    manifest.append(["look": look.name, "truth_of": p.name, "file": truthFiles[k]])
                }
            }
        }
        if let dump {
            for p in photos {
                manifest.append(["photo": p.name, "file": photoFiles[p.name] ?? "", "width": "\(p.image.width)",
                                 "height": "\(p.image.height)"])
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(manifest).write(to: URL(fileURLWithPath: dump + "/manifest.json"))
            let results = JSONEncoder()
            results.outputFormatting = [.sortedKeys]
            try results.encode(cases).write(to: URL(fileURLWithPath: dump + "/lattice-cases.json"))
        }
        return cases
    }
}
