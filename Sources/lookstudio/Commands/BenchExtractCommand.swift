import ArgumentParser
import Foundation
import ImageIO
import LookBench
import LookCore

/// `lookstudio bench extract`: seconds for a 12 MP before/after pair to a 33³ look (docs/EXTRACT.md).
struct BenchExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Time look extraction: a 12 MP before/after pair to a 33³ look (alignment checks and fit).",
        discussion: """
        The before image is PHOTO (default: a generated colour field) stretched to --width×--height with a little \
        noise; the after image is a creative look applied to it, rounded to 8 bits, or with --jpeg-quality saved \
        as a JPEG of that quality (the fit then models its compression). Decoding is not timed.

        Examples:
          lookstudio bench extract --photo samples/coffee.png --repeat 3
          lookstudio bench extract --photo samples/coffee.png --jpeg-quality 90
        """
    )

    @Option(help: "Photo to stretch to the benchmark size (default: a generated colour field).")
    var photo: String?

    @Option(help: "Width of the pair, in pixels.")
    var width = 4000

    @Option(help: "Height of the pair, in pixels.")
    var height = 3000

    @Option(help: "Save the after image as a JPEG of this quality (1…100) first, as an editor's export.")
    var jpegQuality: Int?

    @Option(help: "Runs; the fastest is reported.")
    var `repeat` = 3

    func validate() throws {
        let limit = PNGReader.defaultMaxPixels
        guard width >= 1, height >= 1, width <= limit / height else {
            throw ValidationError("--width \(width) --height \(height): give at least 1×1 and at most "
                                  + "\(limit) pixels (the pixel limit of extract)")
        }
        if let jpegQuality, !(1...100).contains(jpegQuality) {
            throw ValidationError(TextNumber.outOfRange("--jpeg-quality", jpegQuality, 1...100))
        }
        try BenchLimits.checkRepeat(`repeat`)
    }

    /// The 1-minute load average, which says how far wall time can be trusted on a shared machine.
    private func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return String(text.split(separator: " ").first ?? "unknown")
    }

    func run() throws {
        let source = try photo.map { try ExtractBenchmark.loadPhoto(path: $0) } ?? ExtractBenchmark.demoPhoto()
        let look = try ExtractBenchmark.demoLook()
        var best: ExtractBenchmark.Result?
        for _ in 0..<`repeat` {
            let r = try ExtractBenchmark.run(photo: source, look: look, width: width, height: height,
                                               jpegQuality: jpegQuality)
            print(String(format: "%.1f MP pair → 33³: align %.2f s, fit %.2f s, total %.2f s, processor %.2f s "
                         + "(held-out %.2f ΔE00)", Double(r.pixels) / 1e6, r.alignSeconds, r.fitSeconds,
                         r.alignSeconds + r.fitSeconds, r.cpuSeconds, r.heldOutMean))
            if best.map({ $0.alignSeconds + $0.fitSeconds > r.alignSeconds + r.fitSeconds }) ?? true { best = r }
        }
        if let best {
            print(String(format: "best: %.2f s on %d cores (processor time %.2f s; load average when run: %@)",
                         best.alignSeconds + best.fitSeconds, ProcessInfo.processInfo.activeProcessorCount,
                         best.cpuSeconds, loadAverage()))
        }
    }
}
