import Correction
import ImageIO
import LookCore
import Testing

@Suite struct CorrectorTests {
    static let look = try! ColorCube(size: 17) { c in SIMD3(c.x * c.x, 0.8 * c.y + 0.1, 1 - c.z) }
    static let recipe = try! ColorCube(size: 17) { c in c * 0.9 + 0.05 }

    static func params(preLook: ColorCube? = recipe, strength: Double = 100, lookStrength: Double = 100,
                       contrast: Double = 0, saturation: Double = 0) -> CorrectionParams {
        CorrectionParams(scene: .landscape, defaults: SceneDefaults(lutOutputGuid: "G"),
                         overrides: CorrectionOverrides(strength: strength, preLook: preLook,
                                                        lutOutputStrength: lookStrength, lookContrast: contrast,
                                                        lookSaturation: saturation))
    }

    static func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z))
    }

    @Test("look strength 0 gives the pre-look cube exactly")
    func lookStrengthZero() throws {
        #expect(try Corrector.cube(for: Self.params(lookStrength: 0), look: Self.look) == Self.recipe)
    }

    @Test("without a recipe, the look at 100 is the look cube exactly")
    func lookAlone() throws {
        #expect(try Corrector.cube(for: Self.params(preLook: nil), look: Self.look) == Self.look)
    }

    @Test("with a recipe, the look at 100 is the look sampled at the recipe's output (creative look last)")
    func lookAfterRecipe() throws {
        let cube = try Corrector.cube(for: Self.params(), look: Self.look)
        let p = SIMD3<Float>(0.25, 0.5, 0.75)
        let expected = Self.look.sample(Self.recipe.sample(p))
        #expect(Self.distance(cube.sample(p), expected) < 1e-4)
    }

    @Test("overall strength scales the final cube against identity")
    func overallStrength() throws {
        let full = try Corrector.cube(for: Self.params(), look: Self.look)
        let half = try Corrector.cube(for: Self.params(strength: 50), look: Self.look)
        #expect(half == (try full.scaled(strength: 0.5)))
        #expect(try Corrector.cube(for: Self.params(strength: 0), look: Self.look) == ColorCube.identity(size: 17))
    }

    @Test("contrast trim scales the look output around mid-grey; saturation scales chroma around luma")
    func trims() throws {
        let p = SIMD3<Float>(0.8, 0.3, 0.6)
        let l = Self.look.sample(p)
        let c = try Corrector.cube(for: Self.params(preLook: nil, contrast: 50), look: Self.look)
        let expectedC = 0.5 + 1.5 * (l - 0.5)
        #expect(Self.distance(c.sample(p), expectedC) < 1e-3)
        let s = try Corrector.cube(for: Self.params(preLook: nil, saturation: -100), look: Self.look)
        let out = s.sample(p)
        #expect(abs(out.x - out.y) < 1e-3 && abs(out.y - out.z) < 1e-3)
        let y = (l * SIMD3(0.2126, 0.7152, 0.0722)).sum()
        #expect(abs(out.x - y) < 1e-3)
    }

    @Test("trims do nothing when the look strength is 0")
    func trimsFollowLookStrength() throws {
        let cube = try Corrector.cube(for: Self.params(lookStrength: 0, contrast: 80, saturation: -60),
                                      look: Self.look)
        #expect(cube == Self.recipe)
    }

    @Test("out-of-range parameters and a GUID without a cube are refused, naming the flag")
    func refusals() throws {
        #expect(throws: CorrectionError.outOfRange(name: "look-contrast", value: 150, range: -100...100)) {
            try Corrector.cube(for: Self.params(contrast: 150), look: Self.look)
        }
        #expect(throws: CorrectionError.lookMissing(guid: "G")) {
            try Corrector.cube(for: Self.params(), look: nil)
        }
    }

    @Test("without a pre-look or trims, a look at strength s is the look scaled as apply --strength scales it")
    func lookStrengthMatchesScaled() throws {
        for strength in [35.0, 60, 150] {
            let cube = try Corrector.cube(for: Self.params(preLook: nil, lookStrength: strength), look: Self.look)
            #expect(cube == (try Self.look.scaled(strength: Float(strength / 100))), "\(strength)")
        }
    }

    @Test("look strength above 100 exaggerates after a recipe, clamped to 0…1; above 200 is refused")
    func lookStrengthAbove100() throws {
        let cube = try Corrector.cube(for: Self.params(lookStrength: 200), look: Self.look)
        #expect(cube.values.allSatisfy { (0...1).contains($0) })
        #expect(cube != (try Corrector.cube(for: Self.params(), look: Self.look)))
        #expect(throws: CorrectionError.outOfRange(name: "look-strength", value: 201, range: 0...200)) {
            try Corrector.cube(for: Self.params(lookStrength: 201), look: Self.look)
        }
    }

    @Test("an explicit look without a strength is applied at 100, not at the scene's strength for its own look")
    func explicitLookIgnoresSceneStrength() {
        let params = CorrectionParams(scene: .landscape,
                                      defaults: SceneDefaults(lutOutputGuid: "A", lutOutputStrength: 35),
                                      overrides: CorrectionOverrides(lutOutputGuid: "B"))
        #expect(params.lutOutputGuid == "B" && params.lutOutputStrength == 100)
        let scene = CorrectionParams(scene: .landscape,
                                     defaults: SceneDefaults(lutOutputGuid: "A", lutOutputStrength: 35),
                                     overrides: CorrectionOverrides(lutOutputStrength: 80))
        #expect(scene.lutOutputGuid == "A" && scene.lutOutputStrength == 80)
    }

    @Test("explicit overrides win over scene defaults; scene defaults fill the rest")
    func defaults() {
        let fromScene = CorrectionParams(scene: .underwater,
                                         defaults: SceneDefaults(lutOutputGuid: "A", lutOutputStrength: 60),
                                         overrides: CorrectionOverrides())
        #expect(fromScene.lutOutputGuid == "A" && fromScene.lutOutputStrength == 60)
        let explicit = CorrectionParams(scene: .underwater,
                                        defaults: SceneDefaults(lutOutputGuid: "A", lutOutputStrength: 60),
                                        overrides: CorrectionOverrides(lutOutputGuid: "B", lutOutputStrength: 30))
        #expect(explicit.lutOutputGuid == "B" && explicit.lutOutputStrength == 30)
    }
}
