import PluginHost
import Testing

/// The rules of typed values (issue 52): one rule book for descriptors' defaults, recipes and the plugin host.
@Suite("ParameterDescriptor")
struct ParameterDescriptorTests {
    static let tone = ParameterDescriptor(
        name: "master", displayName: "Master", description: "", kind: .curve, min: 0, max: 1,
        defaultValue: .curve([SIMD2(0, 0), SIMD2(1, 1)]), identityValue: .curve([SIMD2(0, 0), SIMD2(1, 1)]),
        xRange: 0...1, maxPoints: 4)
    static let hue = ParameterDescriptor(
        name: "hue", displayName: "Hue", description: "", kind: .curve, min: -1, max: 1,
        defaultValue: .curve([SIMD2(0, 0)]), identityValue: .curve([SIMD2(0, 0)]), xRange: 0...360, maxPoints: 16,
        isPeriodic: true)
    static let slope = ParameterDescriptor(
        name: "slope", displayName: "Slope", description: "", kind: .color, min: 0, max: 4,
        defaultValue: .color(SIMD3(1, 1, 1)), identityValue: .color(SIMD3(1, 1, 1)))
    static let style = ParameterDescriptor(
        name: "style", displayName: "Style", description: "", kind: .choice, min: 0, max: 2,
        defaultValue: .choice(0), identityValue: .choice(0), choices: ["fwd", "rev", "no-clamp"])

    @Test("a curve's points: count within 2…max_points, x strictly increasing and in range, y in range, finite")
    func curveRules() {
        let d = Self.tone
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(1, 1)])) == nil)
        #expect(d.problem(with: .curve([SIMD2(0, 0)])) == "has 1 point; give 2 to 4")
        #expect(d.problem(with: .curve((0..<5).map { SIMD2(Float($0) / 4, 0) })) == "has 5 points; give 2 to 4")
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(0.2, 0.3)]))
                == "point 3 x=0.2 is not after point 2 x=0.25")
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(0, 1)])) == "point 2 x=0 is not after point 1 x=0")
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(1.5, 1)])) == "point 2 x=1.5 is outside 0…1")
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(1, 1.25)])) == "point 2 y=1.25 is outside 0…1")
        #expect(d.problem(with: .curve([SIMD2(0, .nan), SIMD2(1, 1)])) == "point 1 is not two finite numbers")
    }

    @Test("a periodic curve takes one point and keeps x below x_max, the same place as x_min")
    func periodicRules() {
        let d = Self.hue
        #expect(d.minPoints == 1)
        #expect(d.problem(with: .curve([SIMD2(120, 0.5)])) == nil)
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(359.5, 0.2)])) == nil)
        #expect(d.problem(with: .curve([SIMD2(0, 0), SIMD2(360, 0.2)]))
                == "point 2 x=360 is outside 0…360 (periodic: x stays below 360, the same place as 0)")
        #expect(Self.tone.problem(with: .curve([SIMD2(0, 0), SIMD2(1, 1)])) == nil, "x_max is fine when not periodic")
    }

    @Test("a colour's components stay within min…max, naming the channel; a choice's index within its options")
    func colourAndChoiceRules() {
        #expect(Self.slope.problem(with: .color(SIMD3(1.1, 1, 0.9))) == nil)
        #expect(Self.slope.problem(with: .color(SIMD3(1, 4.5, 1))) == "green 4.5 is outside 0…4")
        #expect(Self.slope.problem(with: .color(SIMD3(1, 1, .infinity))) == "blue inf is not a finite number")
        #expect(Self.style.problem(with: .choice(2)) == nil)
        #expect(Self.style.problem(with: .choice(3)) == "option index 3 is outside 0…2")
        #expect(Self.style.problem(with: .number(1)) == "is one of fwd, rev, no-clamp, not a number")
    }

    @Test("a recipe's setting resolves to the typed value; wrong shapes and unknown options say what is expected")
    func settings() {
        #expect(Self.style.value(for: "no-clamp") == .success(.choice(2)))
        #expect(Self.style.value(for: "clamp")
                == .failure(.unknownChoice("clamp", options: ["fwd", "rev", "no-clamp"])))
        #expect(ParameterProblem.unknownChoice("clamp", options: ["fwd", "rev"]).description
                == "has no option \"clamp\": use one of fwd, rev")
        #expect(Self.slope.value(for: .color(SIMD3(1.1, 1, 0.9))) == .success(.color(SIMD3(1.1, 1, 0.9))))
        #expect(Self.slope.value(for: 1.2) == .failure(.invalid("takes a colour [r, g, b], not a number")))
        #expect(Self.tone.value(for: .curve([SIMD2(0, 0), SIMD2(0.3, 0.1)]))
                == .success(.curve([SIMD2(0, 0), SIMD2(0.3, 0.1)])))
        #expect(Self.tone.value(for: "s-curve") == .failure(.invalid(
            "takes a curve [[x, y], …], not the option name \"s-curve\"")))
        #expect(Self.tone.value(for: .curve([SIMD2(0, 0), SIMD2(1, 2)])) == .failure(.invalid(
            "point 2 y=2 is outside 0…1")))
    }

    @Test("a value reads back as a recipe writes it: shortest decimals, the option by name")
    func settingForValue() {
        #expect(Self.slope.setting(for: .color(SIMD3(1.1, 1, 0.9))) == .color(SIMD3(1.1, 1, 0.9)))
        #expect(Self.tone.setting(for: .curve([SIMD2(0, 0), SIMD2(0.2, 0.3)]))
                == .curve([SIMD2(0, 0), SIMD2(0.2, 0.3)]))
        #expect(Self.style.setting(for: .choice(1)) == "rev")
        let exposure = ParameterDescriptor(name: "stops", displayName: "Stops", description: "", kind: .scalar,
                                           min: -5, max: 5, defaultValue: 0, identityValue: 0)
        #expect(exposure.setting(for: .number(0.3)) == 0.3)
    }
}
