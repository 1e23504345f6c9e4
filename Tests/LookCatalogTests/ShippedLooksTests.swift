import Foundation
import LookCore
import Testing
@testable import LookCatalog

struct ShippedLooksTests {
    let red = SIMD3<Float>(0.8, 0.2, 0.2), blue = SIMD3<Float>(0.2, 0.2, 0.8)
    let grey = SIMD3<Float>(repeating: 0.5), white = SIMD3<Float>(repeating: 1), black = SIMD3<Float>(repeating: 0)

    @Test func sixLooksWithDistinctUppercaseGUIDs() {
        #expect(ShippedLooks.all.count == 6)
        #expect(Set(ShippedLooks.all.map(\.guid)).count == 6)
        for look in ShippedLooks.all { #expect(UUID(uuidString: look.guid) != nil && look.guid == look.guid.uppercased()) }
    }

    @Test func redFilterIsGreyAndRendersRedLighterThanBlue() {
        let r = ShippedLooks.redFilterBW(red), b = ShippedLooks.redFilterBW(blue)
        #expect(r.x == r.y && r.y == r.z)
        #expect(r.x > b.x + 0.4)
        // High contrast: a dark grey gets darker, a light grey lighter than a plain mix would give.
        #expect(ShippedLooks.redFilterBW(SIMD3(repeating: 0.3)).x < 0.3)
        #expect(ShippedLooks.redFilterBW(SIMD3(repeating: 0.7)).x > 0.7)
    }

    @Test func hotBlackInvertsBrightness() {
        #expect(ShippedLooks.hotBlackInfrared(white).x < 0.05)
        #expect(ShippedLooks.hotBlackInfrared(black).x > 0.95)
        let v = ShippedLooks.hotBlackInfrared(red)
        #expect(v.x == v.y && v.y == v.z)
    }

    @Test func cyanotypeIsAllBlues() {
        for c in [black, grey, white, red, blue] {
            let v = ShippedLooks.cyanotype(c)
            #expect(v.z >= v.y && v.y >= v.x)
        }
    }

    @Test func nightVisionIsGreenWithLowContrast() {
        let lo = ShippedLooks.nightVision(black), hi = ShippedLooks.nightVision(white)
        #expect(lo.y > 0.05 && hi.y < 0.8)
        for c in [grey, red, blue, white] {
            let v = ShippedLooks.nightVision(c)
            #expect(v.y > v.x && v.y > v.z)
        }
    }

    @Test func warmFilmWarmsNeutralsAndLiftsBlack() {
        let g = ShippedLooks.warmFilm(grey)
        #expect(g.x > g.z)
        #expect(ShippedLooks.warmFilm(black).x > 0.02)
    }

    @Test func tealAndOrangeSplitsShadowsAndHighlights() {
        let shadow = ShippedLooks.tealOrange(SIMD3(repeating: 0.15)), light = ShippedLooks.tealOrange(SIMD3(repeating: 0.85))
        #expect(shadow.z > shadow.x)
        #expect(light.x > light.z)
    }

    @Test func committedLooksMatchTheGenerator() throws {
        let seed = try Seed.load(from: TestSupport.packageRoot)
        for def in ShippedLooks.all {
            let entry = try #require(seed.looks.first { $0.guid == def.guid })
            #expect(entry.name == def.name && entry.file == "\(def.stem).png" && entry.size == ShippedLooks.size)
            let stored = try seed.cube(of: entry)
            let expected = try ShippedLooks.cube(def)
            var worst: Float = 0
            for (a, b) in zip(stored.values, expected.values) { worst = max(worst, abs(a - b)) }
            // 16-bit quantisation only (plus clamping, which the functions never need).
            #expect(worst <= 0.5 / 65535 + 1e-6, "\(def.name) differs by \(worst)")
        }
    }
}
