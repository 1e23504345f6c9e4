import Foundation
import LookStudioTestSupport
import LookCore
import Testing
@testable import LookCatalog

/// The shipped looks as committed in Looks/ (what a catalog is seeded with), whatever their source.
struct ShippedLooksTests {
    let red = SIMD3<Float>(0.8, 0.2, 0.2), blue = SIMD3<Float>(0.2, 0.2, 0.8)
    let grey = SIMD3<Float>(repeating: 0.5), white = SIMD3<Float>(repeating: 1), black = SIMD3<Float>(repeating: 0)

    /// The committed cube of the shipped look named `name`.
    func committed(_ name: String) throws -> ColorCube {
        let seed = try Seed.load(from: TestSupport.packageRoot)
        let look = try #require(seed.looks.first { $0.name == name })
        return try seed.cube(of: look)
    }

    @Test func sixLooksWithDistinctUppercaseGUIDs() {
        #expect(ShippedLooks.all.count == 6)
        #expect(Set(ShippedLooks.all.map(\.guid)).count == 6)
        for look in ShippedLooks.all { #expect(UUID(uuidString: look.guid) != nil && look.guid == look.guid.uppercased()) }
    }

    @Test func redFilterIsGreyAndRendersRedLighterThanBlue() throws {
        let look = try committed("Red Filter B&W")
        let r = look.sample(red), b = look.sample(blue)
        #expect(abs(r.x - r.y) < 1e-4 && abs(r.y - r.z) < 1e-4)
        #expect(r.x > b.x + 0.4)
        // High contrast: a dark grey gets darker, a light grey lighter than a plain mix would give.
        #expect(look.sample(SIMD3(repeating: 0.3)).x < 0.3)
        #expect(look.sample(SIMD3(repeating: 0.7)).x > 0.7)
    }

    @Test func hotBlackInvertsBrightness() throws {
        let look = try committed("Hot Black Infrared")
        #expect(look.sample(white).x < 0.05)
        #expect(look.sample(black).x > 0.95)
        let v = look.sample(red)
        #expect(v.x == v.y && v.y == v.z)
    }

    @Test func cyanotypeIsAllBlues() throws {
        let look = try committed("Cyanotype")
        for c in [black, grey, white, red, blue] {
            let v = look.sample(c)
            #expect(v.z >= v.y && v.y >= v.x)
        }
    }

    @Test func nightVisionIsGreenWithLowContrast() throws {
        let look = try committed("Night Vision")
        let lo = look.sample(black), hi = look.sample(white)
        #expect(lo.y > 0.05 && hi.y < 0.8)
        for c in [grey, red, blue, white] {
            let v = look.sample(c)
            #expect(v.y > v.x && v.y > v.z)
        }
    }

    @Test func warmFilmWarmsNeutralsLiftsBlackAndRollsOffWhite() throws {
        let look = try committed("Warm Film")
        let g = look.sample(grey)
        #expect(g.x > g.z + 0.02)
        #expect(look.sample(black).x > 0.02)
        #expect(look.sample(white).z < 0.99)
        // Muted: a saturated red keeps less of its chroma than it had.
        let r = look.sample(red)
        #expect(r.x - r.z < red.x - red.z)
    }

    @Test func tealAndOrangeSplitsShadowsAndHighlights() throws {
        let look = try committed("Teal & Orange")
        let shadow = look.sample(SIMD3(repeating: 0.15)), light = look.sample(SIMD3(repeating: 0.85))
        #expect(shadow.z > shadow.x)
        #expect(light.x > light.z)
    }

    @Test("recipe looks carry their recipe in the YAML and the seed; colour-function looks say why they are not recipes")
    func sourcesAreRecordedInTheSeed() throws {
        let seed = try Seed.load(from: TestSupport.packageRoot)
        for def in ShippedLooks.all {
            let entry = try #require(seed.looks.first { $0.guid == def.guid })
            #expect(entry.name == def.name && entry.file == "\(def.stem).png" && entry.size == ShippedLooks.size)
            #expect(entry.description == def.description)
            switch def.source {
            case .recipe:
                let recipe = try #require(entry.recipeYAML, "\(def.name) has no recipe in its YAML")
                #expect(recipe.contains("steps:") && recipe.contains("adjust:"))
                #expect(try ShippedLooks.generatedCube(def) == nil)
            case .generator:
                #expect(entry.recipeYAML == nil)
                #expect(def.description.contains("the built-in adjustments cannot"))
            }
        }
        #expect(ShippedLooks.all.contains { $0.recipeYAML != nil })
    }

    @Test("a seeded catalog stores the shipped recipes, so looks show prints them")
    func seededRecipes() throws {
        let catalog = try TestSupport.newCatalog()
        let warm = try catalog.resolveLook("Warm Film")
        #expect(warm.recipeYAML?.contains("wb.temperature") == true)
        #expect(warm.sourceFormat == "shipped")
        #expect(try catalog.resolveLook("Cyanotype").recipeYAML == nil)
    }

    @Test("the committed PNGs and YAML files are exactly what `make looks` produces")
    func committedLooksMatchMakeLooks() throws {
        guard CLI.available else {
            Issue.record("build lookstudio first (swift build): \(CLI.binary) is missing")
            return
        }
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["looks", "render-shipped", "--out", dir])
        #expect(r.status == 0, "\(r.stderr)")
        for def in ShippedLooks.all {
            for file in ["\(def.stem).png", "\(def.stem).yaml"] {
                let committed = TestSupport.bytes("\(TestSupport.packageRoot)/Looks/\(file)")
                #expect(!committed.isEmpty, "Looks/\(file) is missing")
                #expect(committed == TestSupport.bytes("\(dir)/\(file)"), "Looks/\(file) differs: run `make looks`")
            }
        }
        // The generator looks also match their colour functions, to 16-bit quantisation.
        let seed = try Seed.load(from: TestSupport.packageRoot)
        for def in ShippedLooks.all {
            guard let expected = try ShippedLooks.generatedCube(def),
                  let entry = seed.looks.first(where: { $0.guid == def.guid }) else { continue }
            let stored = try seed.cube(of: entry)
            var worst: Float = 0
            for (a, b) in zip(stored.values, expected.values) { worst = max(worst, abs(a - b)) }
            #expect(worst <= 0.5 / 65535 + 1e-6, "\(def.name) differs by \(worst)")
        }
    }
}
