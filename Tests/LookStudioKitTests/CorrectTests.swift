import Foundation
import ImageIO
import LookStudioKit
import LookStudioTestSupport
import Testing
import Workflows

/// Detect once, apply many: the correction in memory is `lookstudio correct`'s, byte for byte.
@Suite struct CorrectTests {
    @Test(.enabled(if: CLI.available), arguments: ["astronaut.png", "coffee.png"])
    func correctAfterOneDetectIsTheCommandLinesBytesAtEveryStrength(photo: String) throws {
        let cli = try Fixture.commandLineCorrect(photo)
        let (pixels, color) = try Fixture.photo(photo)
        let input = try Fixture.pixels8(pixels, color)
        let engine = try Fixture.engine.get()
        let analysis = try engine.detect(input)
        for s in [40.0, 70, 100] {
            var params = Params()
            params.strength = s
            let out = try engine.apply(params, to: input, analysis: analysis)
            #expect(.eight(out.samples) == cli[s]?.samples, "\(photo) at strength \(s)")
        }
    }

    @Test(.enabled(if: CLI.available))
    func aNamedLookWithTrimsAndStagesMatchesTheCommandLine() throws {
        let look = try Fixture.lookGUIDs(4)[3]
        let cli = try Fixture.commandLineCorrect("chelsea.png", extra: ["--look", look, "--look-strength", "70",
                                                                 "--look-saturation", "-20", "--exposure", "50"])
        let (pixels, color) = try Fixture.photo("chelsea.png")
        let input = try Fixture.pixels8(pixels, color)
        let engine = try Fixture.engine.get()
        let analysis = try engine.detect(input)
        var params = Params(look: look, lookStrength: 70, strength: 40)
        params.lookSaturation = -20
        params.exposure = 50
        #expect(.eight(try engine.apply(params, to: input, analysis: analysis).samples) == cli[40]?.samples)
    }

    @Test(.enabled(if: CLI.available))
    func aPreLookRecipeIsComposedWithThePluginsAsCorrectRecipeComposesIt() throws {
        let recipe = "\(try CLI.tempDir())/pre.yaml"
        try """
            name: pre-look
            size: 33
            steps:
              - adjust: tone.gamma
                params: { gamma: 1.2 }
              - adjust: wb.temperature
                params: { shift: -900 }
            """.write(toFile: recipe, atomically: true, encoding: .utf8)
        let cli = try Fixture.commandLineCorrect("coffee.png", extra: ["--recipe", recipe])
        let (pixels, color) = try Fixture.photo("coffee.png")
        let input = try Fixture.pixels8(pixels, color)
        let engine = try Fixture.engine.get()
        var params = Params()
        params.strength = 70
        params.recipe = recipe
        let analysis = try engine.detect(input)
        let out = try engine.apply(params, to: input, analysis: analysis)
        #expect(.eight(out.samples) == cli[70]?.samples)
        params.recipe = nil
        #expect(try engine.apply(params, to: input, analysis: analysis).samples != out.samples)
    }

    @Test func theInMemoryAnalysisIsTheFilesForTheSameDecodedPixels() throws {
        let engine = try Fixture.engine.get()
        for photo in ["astronaut.png", "chelsea.png", "coffee.png"] {
            let (pixels, color) = try Fixture.photo(photo)
            let fromFile = try engine.detect(file: "\(CLI.packageRoot)/samples/\(photo)")
            let inMemory = try engine.detect(try Fixture.pixels8(pixels, color))
            #expect(inMemory.json == fromFile.json, "\(photo)")
            #expect(inMemory.scene == fromFile.scene)
        }
    }

    @Test func theAstronautIsAPersonAndHerFaceIsFound() throws {
        let (pixels, color) = try Fixture.photo("astronaut.png")
        let analysis = try Fixture.engine.get().detect(try Fixture.pixels8(pixels, color))
        #expect(analysis.faces.count == 1)
        #expect(analysis.json.contains("\"faces\""))
    }
}
