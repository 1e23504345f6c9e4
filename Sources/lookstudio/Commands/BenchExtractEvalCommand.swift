import ArgumentParser
import Foundation
import LookBench

/// `lookstudio bench extract-eval`: extraction accuracy on real looks and photos (docs/EXTRACT.md).
struct BenchExtractEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract-eval",
        abstract: "Apply looks to photos, extract each look from one pair, report CIEDE2000 to the true look.",
        discussion: """
        For every look × source photo × variant (clean 8-bit, vignette, brush, JPEG q85; on request \
        Gaussian noise of 4 codes, JPEG's size without its structure, and lossy WebP, HEIC or AVIF at quality \
        85) the look is extracted from (photo, look applied to photo) and compared with the true look on every photo. --dump DIR also writes the \
        pixels and the fitted cubes (float32) and a manifest, for scripts/extract/polynomial.py and \
        look-prior.py. Photos are read at ≤ --long-side pixels (768) on the long side.

        Example: lookstudio bench extract-eval --look a.cube --look b.png --dump /tmp/ev samples/*.png
        """
    )

    @Argument(help: ArgumentHelp("Photos.", valueName: "image"))
    var images: [String]

    @Option(help: "Look file (.cube, .3dl, PNG); repeatable.")
    var look: [String] = []

    @Option(help: """
        Variant to run (clean, vignette, brush, jpeg-q85; noise, webp-q85, heic-q85, avif-q85); repeatable; \
        default the first four.
        """)
    var variant: [String] = []

    @Option(help: "Photo name (file name without extension) only measured on, never a pair's source; repeatable.")
    var targetOnly: [String] = []

    @Option(help: "Folder for raw pixels, manifest.json and lattice-cases.json.")
    var dump: String?

    @Option(help: "Long side, in pixels, the photos are evaluated at.")
    var longSide = 768

    func validate() throws {
        guard longSide >= 1 else {
            throw ValidationError("--long-side \(longSide) is out of range: give 1 or more pixels")
        }
        _ = try variants
    }

    /// The `--variant` names as variants; a name that is none of them is an argument error.
    private var variants: [ExtractEvaluation.Variant] {
        get throws {
            try variant.map { name in
                guard let v = ExtractEvaluation.Variant(rawValue: name) else {
                    let names = ExtractEvaluation.Variant.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ValidationError("--variant must be one of \(names); got \(name)")
                }
                return v
            }
        }
    }

    func run() throws {
        let looks = try look.map { (name: URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent,
                                    cube: try ExtractEvaluation.loadLook(path: $0)) }
        let photos = try images.map { (name: URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent,
                                       image: try ExtractEvaluation.loadPhoto(path: $0, longSide: longSide)) }
        let variants = try self.variants
        let cases = try ExtractEvaluation.run(looks: looks, photos: photos,
                                              variants: variants.isEmpty ? ExtractEvaluation.Variant.standard : variants,
                                              targetOnly: Set(targetOnly), dump: dump) {
            FileHandle.standardError.write(Data(("… " + $0 + "\n").utf8))
        }
        print("look                          source       variant    target       mean    p95  coverage  typical  unshown")
        for c in cases {
            print(pad(c.look, 30) + pad(c.source, 13) + pad(c.variant.rawValue, 11) + pad(c.target, 12)
                  + String(format: "%6.2f %6.2f %8.3f %8.3f %8.3f", c.mean, c.p95, c.coverage, c.typicalCoverage,
                           c.unshown))
        }
    }

    private func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0)
    }
}
