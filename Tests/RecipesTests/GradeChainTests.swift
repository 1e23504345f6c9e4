import Foundation
import ImageIO
import LookCore
import LookFormats
import LookStudioTestSupport
import Recipes
import Testing

/// The grading adjustments in a recipe beside the older steps: one composed cube must do what the steps do one
/// after another.
@Suite struct GradeChainTests {
    /// Ten steps: the older tone, white balance and colour adjustments and a shipped catalog look, between the
    /// grading set's curves, wheels, CDL, hue curve, channel mixer and split tone.
    static let recipe = """
        name: Graded Ten
        steps:
          - adjust: tone.contrast
            params: { amount: 0.15 }
          - adjust: curve.rgb
            params: { master: [[0, 0], [0.25, 0.21], [0.75, 0.8], [1, 1]], blue: [[0, 0.03], [1, 0.96]] }
          - adjust: wb.temperature
            params: { shift: 600 }
          - adjust: grade.lift_gamma_gain
            params: { lift: [0.02, 0, -0.01], gamma_master: 0.1, gain: [0, 0.01, 0.04] }
          - look: teal-orange
            strength: 60
          - adjust: grade.cdl
            params: { slope: [1.05, 1, 0.94], offset: [0.01, 0, 0.02], power: [1.1, 1, 0.92], saturation: 1.1 }
          - adjust: color.saturation
            params: { amount: 0.1 }
          - adjust: curve.hue_sat
            params: { gain: [[0, 0.8], [120, 1], [240, 0.9]] }
          - adjust: color.channel_mixer
            params: { red: [0.92, 0.08, 0], green: [0.04, 0.92, 0.04], blue: [0, 0.1, 0.9] }
          - adjust: color.split_tone
            params: { shadow_hue: 210, shadow_amount: 0.3, highlight_hue: 40, highlight_amount: 0.2 }
        """

    @Test("ten old and new steps composed at 64³ match the steps applied one after another within 1 code on a photo")
    func composedEqualsSequential() throws {
        let look = try LUTFormat.readCube(path: CLI.packageRoot + "/Looks/teal-orange.png").cube
        let composer = ComposerFixtures.composer(["teal-orange": look])
        let recipe = try Recipe.parse(Self.recipe, fileName: "graded.yaml")
        #expect(recipe.steps.count == 10)
        let cube = try composer.compose(recipe, size: 64)

        let photo = try PNGImage.read(path: CLI.packageRoot + "/samples/chelsea.png")
        guard case .eight(let source) = photo.samples, photo.channels == 3 else {
            Issue.record("chelsea.png is expected to be 8-bit RGB")
            return
        }
        var composed = source
        try composed.withUnsafeMutableBufferPointer { try CubeApplier(cube: cube).apply(to: $0, channels: 3) }
        // Sequentially: each step's plugin (or the look's cube) on the photo's floats, in Float, no cube between.
        var colors: [SIMD3<Float>] = stride(from: 0, to: source.count, by: 3).map { p -> SIMD3<Float> in
            SIMD3<Float>(Float(source[p]), Float(source[p + 1]), Float(source[p + 2])) / 255
        }
        try composer.evaluateExactly(recipe, colors: &colors)
        var worst = 0, changed = 0
        for (p, color) in colors.enumerated() {
            for c in 0..<3 {
                let exact = Int((min(max(color[c], 0), 1) * 255).rounded())
                worst = max(worst, abs(Int(composed[3 * p + c]) - exact))
                if composed[3 * p + c] != source[3 * p + c] { changed += 1 }
            }
        }
        print("grade chain: ten steps composed at 64³ vs sequential on chelsea.png: max \(worst) codes")
        #expect(changed > source.count / 2, "the recipe changes most of the photo")
        #expect(worst <= 1)
    }
}
