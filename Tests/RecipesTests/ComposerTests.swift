import Foundation
import ImageIO
import LookCore
import LookFormats
import LookStudioTestSupport
import PluginHost
import Recipes
import Testing

/// Looks, plugins and reference files the composer tests share.
enum ComposerFixtures {
    /// The built-in plugins, which `swift build` puts next to the test binary.
    static let registry = PluginRegistry.load(searchPaths: PluginSearchPath.executableDirectory().map { [$0] } ?? [])

    /// The package's reference files (`Tests/Fixtures/reference`, from this file's path).
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/reference").path

    /// A smooth, strongly non-linear 17³ look: cross-processed, with channel mixing.
    static let crossProcess = try! ColorCube(size: 17) { c in
        let s = c * c * (3 - 2 * c)
        return SIMD3(0.85 * s.x + 0.1 * c.z + 0.03, 0.92 * c.y * c.y + 0.06, 0.7 * c.z + 0.2 * (1 - c.x) * c.z + 0.05)
    }

    /// An affine look (tetrahedral interpolation reproduces it exactly, up to rounding), inside 0…1.
    static func affine(_ m: [Float], _ offset: SIMD3<Float>, size: Int = 9) -> ColorCube {
        try! ColorCube(size: size) { c in
            SIMD3(m[0] * c.x + m[1] * c.y + m[2] * c.z, m[3] * c.x + m[4] * c.y + m[5] * c.z,
                  m[6] * c.x + m[7] * c.y + m[8] * c.z) + offset
        }
    }

    /// A composer whose looks are the given cubes, found by name or by the GUID derived from the name.
    static func composer(_ looks: [String: ColorCube]) -> Composer {
        Composer(registry: registry) { reference in
            for (name, cube) in looks where name == reference || guid(name) == reference {
                return ResolvedLook(guid: guid(name), name: name, cube: cube)
            }
            throw LookNotFound(reference: reference)
        }
    }

    static func guid(_ name: String) -> String {
        "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - name.count)) + name.uppercased().prefix(12)
    }

    struct LookNotFound: Error, CustomStringConvertible {
        var reference: String
        var description: String { "no look named or with GUID \"\(reference)\" in the catalog" }
    }

    /// The built-ins with the typed fixture plugin (`typed.grade`: curve, slope, clamp choice) and the plugin built
    /// from the version 1 header (`legacy.mix`), compiled once; the folder is removed once they are loaded.
    static let typedRegistry = Result { () throws -> PluginRegistry in
        let directory = try PluginCompiler.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PluginCompiler.compile(file: PluginCompiler.typedPluginSource, named: "typed", in: directory)
        try PluginCompiler.compile(file: PluginCompiler.versionOneDirectory + "/v1_plugin.c", named: "v1_plugin",
                                   in: directory, include: PluginCompiler.versionOneDirectory)
        let builtIns = PluginSearchPath.executableDirectory().map { [$0] } ?? []
        return PluginRegistry.load(searchPaths: [directory] + builtIns)
    }

    /// A composer over ``typedRegistry`` with no looks.
    static func typedComposer() throws -> Composer {
        Composer(registry: try typedRegistry.get()) { throw LookNotFound(reference: $0) }
    }

    /// The ten-step recipe of the acceptance test: adjustments from every plugin and two looks.
    static let tenSteps = RecipeExamples.tenSteps(name: "Ten Steps", size: 64, warmLook: "warm33")
}

@Suite struct ComposerTests {
    typealias F = ComposerFixtures

    static func identityLookRecipe(_ steps: [RecipeStep], size: Int? = nil) -> Recipe {
        Recipe(size: size, steps: steps, fileName: "test.yaml")
    }

    static func maxDifference(_ a: ColorCube, _ b: ColorCube) -> Float {
        zip(a.values, b.values).map { abs($0 - $1) }.max() ?? .infinity
    }

    @Test("the built-in plugins are loaded for these tests")
    func pluginsLoaded() {
        #expect(F.registry.adjustment(id: "tone.exposure") != nil)
        #expect(F.registry.adjustment(id: "blend.soft_light") != nil)
    }

    @Test("ten steps composed at 64³ match the chain applied step by step in Float on the reference chart",
          arguments: [64, 33, 17])
    func tenStepsOnChart(size: Int) throws {
        let reference = F.reference
        let warm = try LUTFormat.read(path: reference + "/warm33.cube").lut.bakedCube()
        let composer = F.composer(["warm33": warm, "cross": F.crossProcess])
        let recipe = try Recipe.parse(F.tenSteps, fileName: "ten.yaml")
        #expect(recipe.steps.count == 10)
        let cube = try composer.compose(recipe, size: size)
        #expect(cube.size == size)

        let chart = try PNGImage.read(path: reference + "/chart.png")
        guard case .eight(let source) = chart.samples else {
            Issue.record("chart.png is expected to be 8-bit")
            return
        }
        var composed = source
        try composed.withUnsafeMutableBufferPointer {
            try CubeApplier(cube: cube).apply(to: $0, channels: chart.channels)
        }
        let pixels = chart.width * chart.height
        var colors = (0..<pixels).map { p in
            SIMD3(Float(source[chart.channels * p]), Float(source[chart.channels * p + 1]),
                  Float(source[chart.channels * p + 2])) / 255
        }
        try composer.evaluateExactly(recipe, colors: &colors)
        var maxDiff = 0, sum = 0
        for p in 0..<pixels {
            for c in 0..<3 {
                let exact = Int((min(max(colors[p][c], 0), 1) * 255).rounded())
                let d = abs(Int(composed[chart.channels * p + c]) - exact)
                maxDiff = max(maxDiff, d)
                sum += d
            }
        }
        let mean = Double(sum) / Double(3 * pixels)
        print(String(format: "composer %d³ vs exact chain on chart.png (%d px): max %d, mean %.4f code values",
                     size, pixels, maxDiff, mean))
        #expect(composed != source, "the recipe changes the chart")
        if size == 64 {
            #expect(maxDiff <= 2)
            #expect(mean <= 0.5)
        }
    }

    @Test("the composed cube equals the exact chain at its own grid points")
    func gridPointsAreExact() throws {
        let composer = F.composer(["warm33": F.crossProcess, "cross": F.crossProcess])
        let recipe = try Recipe.parse(F.tenSteps, fileName: "ten.yaml")
        let cube = try composer.compose(recipe, size: 9)
        var colors = (0..<cube.entryCount).map { cube.gridColor(at: $0) }
        try composer.evaluateExactly(recipe, colors: &colors)
        #expect(colors.enumerated().allSatisfy { $0.element == cube.entry(r: $0.offset % 9, g: $0.offset / 9 % 9,
                                                                              b: $0.offset / 81) })
    }

    @Test("strength 0 is the identity exactly, 100 the look exactly, 50 the midpoint of every entry",
          arguments: [9, 17, 64])
    func strengths(size: Int) throws {
        let look = F.crossProcess
        let composer = F.composer(["cross": look])
        let n = size
        let zero = try composer.compose(Self.identityLookRecipe([RecipeStep(.look("cross"), strength: 0)]), size: n)
        #expect(zero == (try ColorCube.identity(size: n)))
        let full = try composer.compose(Self.identityLookRecipe([RecipeStep(.look("cross"))]), size: n)
        let reference = try look.resampled(to: n)
        #expect(n == look.size ? full == look : Self.maxDifference(full, reference) <= 1e-6)
        let half = try composer.compose(Self.identityLookRecipe([RecipeStep(.look("cross"), strength: 50)]), size: n)
        for i in 0..<half.entryCount {
            let g = half.gridColor(at: i)
            let l = reference.entry(r: i % n, g: i / n % n, b: i / (n * n))
            let h = half.entry(r: i % n, g: i / n % n, b: i / (n * n))
            #expect(max(abs(h.x - (g.x + l.x) / 2), abs(h.y - (g.y + l.y) / 2), abs(h.z - (g.z + l.z) / 2)) <= 1e-6)
        }
        if n == look.size {
            #expect(half == (try look.scaled(strength: 0.5)))
            let double = try composer.compose(Self.identityLookRecipe([RecipeStep(.look("cross"), strength: 200)]), size: n)
            #expect(double == (try look.scaled(strength: 2)))
        }
    }

    @Test("a look followed by itself at strength 0 equals the look alone", arguments: [17, 33, 64])
    func lookThenItselfAtZero(size: Int) throws {
        let composer = F.composer(["cross": F.crossProcess])
        let alone = try composer.compose(Self.identityLookRecipe([RecipeStep(.look("cross"))]), size: size)
        let twice = try composer.compose(Self.identityLookRecipe(
            [RecipeStep(.look("cross")), RecipeStep(.look("cross"), strength: 0)]), size: size)
        #expect(twice == alone)
    }

    @Test("composition is associative within Float rounding for three looks")
    func associative() throws {
        let a = F.affine([0.8, 0.1, 0.05, 0.05, 0.85, 0.05, 0.1, 0.0, 0.7], SIMD3(0.02, 0.03, 0.1))
        let b = F.affine([0.9, 0.0, 0.1, 0.1, 0.8, 0.0, 0.0, 0.15, 0.8], SIMD3(0.0, 0.05, 0.02))
        let c = F.affine([0.7, 0.2, 0.0, 0.0, 0.9, 0.05, 0.05, 0.05, 0.85], SIMD3(0.05, 0.0, 0.03))
        let ab = try a.composed(with: b), bc = try b.composed(with: c)
        let composer = F.composer(["a": a, "b": b, "c": c, "ab": ab, "bc": bc])
        let chain = try composer.compose(Self.identityLookRecipe([.init(.look("a")), .init(.look("b")), .init(.look("c"))]),
                                         size: 9)
        let left = try composer.compose(Self.identityLookRecipe([.init(.look("ab")), .init(.look("c"))]), size: 9)
        let right = try composer.compose(Self.identityLookRecipe([.init(.look("a")), .init(.look("bc"))]), size: 9)
        #expect(Self.maxDifference(chain, left) <= 1e-6)
        #expect(Self.maxDifference(chain, right) <= 1e-6)
        #expect(Self.maxDifference(left, right) <= 1e-6)
        #expect(Self.maxDifference(chain, try ColorCube.identity(size: 9)) > 0.05, "the looks do something")
    }

    @Test("composing with the identity, as a look or as identity parameters, is exact")
    func identityIsExact() throws {
        let look = F.crossProcess
        let composer = F.composer(["cross": look, "id": try ColorCube.identity(size: 33)])
        let before = try composer.compose(Self.identityLookRecipe([.init(.look("id")), .init(.look("cross"))]), size: 17)
        let after = try composer.compose(Self.identityLookRecipe([.init(.look("cross")), .init(.look("id"))]), size: 17)
        let identityAdjust = try composer.compose(Self.identityLookRecipe([
            .init(.adjust(id: "tone.contrast", params: ["amount": 0])), .init(.look("cross")),
            .init(.adjust(id: "color.hue", params: ["angle": 0]))]), size: 17)
        #expect(before == look)
        #expect(after == look)
        #expect(identityAdjust == look)
        #expect(try composer.compose(Self.identityLookRecipe([]), size: 5) == ColorCube.identity(size: 5))
    }

    @Test("a chain that changes nothing is an identity lattice, no cube built, even at 256³")
    func aChainThatChangesNothingIsAnIdentityLattice() throws {
        let composer = F.composer(["cross": F.crossProcess])
        let identity = CubeLattice.identity(IdentityValues(size: 256, quantizedTo16Bit: false))
        #expect(try composer.lattice(Self.identityLookRecipe([], size: 256)) == identity)
        #expect(try composer.lattice(Self.identityLookRecipe([
            .init(.look("cross"), strength: 0), .init(.adjust(id: "tone.contrast", params: ["amount": 0]))]),
            size: 256) == identity)
        let look = try composer.lattice(Self.identityLookRecipe([.init(.look("cross"))]), size: 17)
        #expect(look == .cube(F.crossProcess))
    }

    @Test("an adjustment's strength blends against its own input")
    func adjustmentStrength() throws {
        let composer = F.composer([:])
        let full = try composer.compose(Self.identityLookRecipe([.init(.adjust(id: "tone.gamma", params: ["gamma": 2]))]),
                                        size: 5)
        let half = try composer.compose(Self.identityLookRecipe(
            [.init(.adjust(id: "tone.gamma", params: ["gamma": 2]), strength: 50)]), size: 5)
        let identity = try ColorCube.identity(size: 5)
        for i in 0..<full.values.count {
            #expect(abs(half.values[i] - (identity.values[i] + full.values[i]) / 2) <= 1e-6)
        }
        #expect(full.values[3] == (Float(0.25).squareRoot()))
    }

    @Test("a LUT file step reads the file relative to the recipe and equals the same cube given as a look")
    func lutStep() throws {
        let reference = F.reference
        let warm = try LUTFormat.read(path: reference + "/warm33.cube").lut.bakedCube()
        let composer = F.composer(["warm": warm])
        var viaFile = try Recipe.parse("steps:\n  - lut: warm33.cube\n    strength: 80\n  - adjust: tone.gamma\n",
                                       fileName: "r.yaml")
        viaFile.directory = reference
        let viaLook = try Recipe.parse("steps:\n  - look: warm\n    strength: 80\n  - adjust: tone.gamma\n",
                                       fileName: "r.yaml")
        #expect(try composer.compose(viaFile, size: 33) == composer.compose(viaLook, size: 33))
    }

    @Test("unknown adjustments, bad parameters and unknown looks name the step, its id and the YAML line")
    func resolutionErrors() throws {
        let composer = F.composer(["cross": F.crossProcess])
        func error(_ yaml: String) -> String {
            do {
                _ = try composer.compose(try Recipe.parse(yaml, fileName: "r.yaml"), size: 4)
                return ""
            } catch {
                return "\(error)"
            }
        }
        let unknown = error("steps:\n  - look: cross\n  - adjust: tone.nope\n")
        #expect(unknown.hasPrefix("r.yaml line 3: step 2 (tone.nope): no adjustment \"tone.nope\""))
        let range = error("steps:\n  - adjust: tone.contrast\n    params:\n      amount: 3\n")
        #expect(range.hasPrefix("r.yaml line 4: step 1 (tone.contrast): tone.contrast parameter amount = 3.0 is out of range"))
        let name = error("steps:\n  - adjust: tone.contrast\n    params: { amout: 0.1 }\n")
        #expect(name.hasPrefix("r.yaml line 3: step 1 (tone.contrast): tone.contrast has no parameter \"amout\""))
        let look = error("name: x\nsteps:\n  - adjust: tone.gamma\n  - look: Cyanotype\n    strength: 10\n")
        #expect(look == "r.yaml line 4: step 2 (look Cyanotype): no look named or with GUID \"Cyanotype\" in the catalog")
        let lut = error("steps:\n  - lut: /nonexistent/x.cube\n")
        #expect(lut.hasPrefix("r.yaml line 2: step 1 (lut /nonexistent/x.cube): "))
    }

    @Test("explain names what each step resolved to and measures the error at the chosen and canonical sizes")
    func explain() throws {
        let composer = F.composer(["warm33": F.crossProcess, "cross": F.crossProcess])
        let recipe = try Recipe.parse(F.tenSteps, fileName: "ten.yaml")
        let report = try composer.explain(recipe, size: 24)
        #expect(report.size == 24)
        #expect(report.steps.count == 10)
        #expect(report.steps[0].pluginPath?.hasSuffix("libTonePlugin.so") == true)
        #expect(report.steps[0].parameters == ["stops": 0.3])
        #expect(report.steps[3].lookGUID == F.guid("warm33"))
        #expect(report.steps[3].cubeSize == 17)
        #expect(report.errors.map(\.size) == [4, 16, 24, 33, 64])
        #expect(report.errors.filter(\.chosen).map(\.size) == [24])
        #expect(report.probeCount == 10_000)
        let bySize = Dictionary(uniqueKeysWithValues: report.errors.map { ($0.size, $0) })
        #expect(try #require(bySize[64]).maxCodeValues < (try #require(bySize[4])).maxCodeValues)
        #expect(try #require(bySize[64]).meanCodeValues < 0.5)
        #expect(report.text.contains("became one 24³ cube"))
        #expect(report.text.contains("libWhiteBalancePlugin.so"))
        let json = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(CompositionReport.self, from: json) == report)
    }

    @Test("probe colours are fixed, inside the unit cube and spread over it")
    func probes() {
        let probes = CompositionReport.probeColors()
        #expect(probes.count == 10_000)
        #expect(probes == CompositionReport.probeColors())
        #expect(probes.allSatisfy { $0.min() >= 0 && $0.max() < 1 })
        var octants = Set<Int>()
        for p in probes { octants.insert(Int(p.x * 2) + 2 * Int(p.y * 2) + 4 * Int(p.z * 2)) }
        #expect(octants.count == 8)
    }

    static let gradeYAML = """
        name: Graded
        steps:
          - adjust: typed.grade
            params: { master: [[0, 0.1], [0.5, 0.3], [1, 0.9]], slope: [1.1, 1, 0.5], style: no-clamp }
          - adjust: legacy.mix
            params: { gain: 0.5, offset: -0.1 }
        """

    @Test("a curve, a colour and a choice compose to the plugin's formula; a version 1 step composes after it")
    func typedCompose() throws {
        let composer = try F.typedComposer()
        let cube = try composer.compose(try Recipe.parse(Self.gradeYAML, fileName: "graded.yaml"), size: 5)
        func curve(_ v: Double) -> Double {
            v <= 0.5 ? 0.1 + (Double(Float(0.3)) - 0.1) * v / 0.5 : Double(Float(0.3)) + (0.9 - 0.3) * (v - 0.5) / 0.5
        }
        let slope: [Double] = [Double(Float(1.1)), 1, 0.5]
        for (index, grid) in [(1, 0.25), (3, 0.75)] {
            let entry = cube.entry(r: index, g: index, b: index)
            for channel in 0..<3 {
                let graded = Double(Float(curve(grid) * slope[channel]))
                let mixed = Float(Swift.min(Swift.max(graded * 1.5 + Double(Float(-0.1)), 0), 1))
                #expect(abs(entry[channel] - mixed) < 1e-5, "entry \(index) channel \(channel)")
            }
        }
    }

    @Test("explain shows curves, colours and choices compactly, and its JSON carries them typed")
    func typedExplain() throws {
        let report = try F.typedComposer().explain(try Recipe.parse(Self.gradeYAML, fileName: "graded.yaml"), size: 9)
        #expect(report.steps[0].parameters == [
            "master": .curve([SIMD2(0, 0.1), SIMD2(0.5, 0.3), SIMD2(1, 0.9)]), "slope": .color(SIMD3(1.1, 1, 0.5)),
            "style": "no-clamp",
        ])
        #expect(report.text.contains("adjust typed.grade (master [0,0.1 0.5,0.3 1,0.9], slope (1.1, 1, 0.5), "
            + "style no-clamp) → typed.so (Typed 2.0.0)"))
        #expect(report.text.contains("adjust legacy.mix (gain 0.5, offset -0.1) → v1_plugin.so (Legacy Mix 1.0.0)"))
        let json = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(CompositionReport.self, from: json) == report)
    }

    @Test("a typed step at its identity curve, slope and choice changes nothing and is skipped")
    func typedIdentitySkipped() throws {
        let yaml = "steps:\n  - adjust: typed.grade\n    params: { master: [[0, 0], [1, 1]], slope: [1, 1, 1] }\n"
        let steps = try F.typedComposer().resolve(try Recipe.parse(yaml, fileName: "r.yaml"))
        #expect(steps.map(\.isNoOp) == [true])
        let moved = "steps:\n  - adjust: typed.grade\n    params: { master: [[0, 0], [0.5, 0.6], [1, 1]] }\n"
        #expect(try F.typedComposer().resolve(try Recipe.parse(moved, fileName: "r.yaml")).map(\.isNoOp) == [false])
    }

    @Test("typed values the plugin refuses name the file, the parameter's line, the step and what is wrong")
    func typedResolutionErrors() throws {
        let composer = try F.typedComposer()
        func error(_ params: String) -> String {
            do {
                let yaml = "steps:\n  - adjust: tone.gamma\n  - adjust: typed.grade\n    params:\n      \(params)\n"
                _ = try composer.resolve(try Recipe.parse(yaml, fileName: "warm.yaml"))
                return ""
            } catch {
                return "\(error)"
            }
        }
        #expect(error("master: [[0, 0], [0.5, 1.5], [1, 1]]") == "warm.yaml line 5: step 2 (typed.grade): typed.grade "
            + "parameter master: point 2 y=1.5 is outside 0…1")
        #expect(error("style: hard") == "warm.yaml line 5: step 2 (typed.grade): typed.grade parameter style has no "
            + "option \"hard\": use one of clamp, no-clamp")
        #expect(error("slope: 1.2") == "warm.yaml line 5: step 2 (typed.grade): typed.grade parameter slope: takes a "
            + "colour [r, g, b], not a number")
        #expect(error("master: [[0.5, 0.5]]") == "warm.yaml line 5: step 2 (typed.grade): typed.grade parameter "
            + "master: has 1 point; give 2 to 16")
    }
}
