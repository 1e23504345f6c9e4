import Foundation
import LookCore
import PluginHost
import Recipes
import Testing

/// The grading adjustments as a recipe uses them: loaded by the plugin host, resolved from recipe settings and
/// baked into a cube by the composer, against the same float64 references as the dlopen tests.
@Suite("Grade plugin through the host and the composer")
struct ComposedGradeTests {
    /// The built-in plugins, which `swift build` puts next to the test binary.
    static let registry = PluginRegistry.load(searchPaths: PluginSearchPath.executableDirectory().map { [$0] } ?? [])

    struct NoLooks: Error {}

    static let composer = Composer(registry: registry) { _ in throw NoLooks() }

    /// Every adjustment's non-trivial case, and grade.cdl in its other style.
    static let cases = GradeCases.ids + ["grade.cdl asc"]

    static func parameters(_ name: String) -> (id: String, values: [String: [Float]]) {
        name == "grade.cdl asc" ? ("grade.cdl", GradeCases.cdl(style: 0)) : (name, GradeCases.nonTrivial[name]!)
    }

    /// The test's floats as a recipe writes them, shaped by each parameter's kind in the host's descriptor.
    static func settings(_ adjustment: Adjustment, _ values: [String: [Float]]) -> [String: ParameterSetting] {
        var settings: [String: ParameterSetting] = [:]
        for parameter in adjustment.parameters {
            guard let v = values[parameter.name]?.map(Double.init) else { continue }
            switch parameter.kind {
            case .color: settings[parameter.name] = .color(SIMD3(v[0], v[1], v[2]))
            case .curve:
                settings[parameter.name] = .curve(stride(from: 0, to: v.count, by: 2).map { SIMD2(v[$0], v[$0 + 1]) })
            case .choice: settings[parameter.name] = .choice(parameter.choices[Int(v[0])])
            case .scalar, .angle, .kelvin, .bool: settings[parameter.name] = .number(v[0])
            }
        }
        return settings
    }

    static func compose(_ id: String, _ settings: [String: ParameterSetting], size: Int = 33) throws -> ColorCube {
        try composer.compose(Recipe(steps: [RecipeStep(.adjust(id: id, params: settings))]), size: size)
    }

    @Test("a composed 33³ cube matches the float64 reference within 1/255 at every entry", arguments: cases)
    func composedMatchesReference(name: String) throws {
        let (id, values) = Self.parameters(name)
        let adjustment = try #require(Self.registry.adjustment(id: id), "the host loads \(id)")
        let cube = try Self.compose(id, Self.settings(adjustment, values))
        // The cube's entries are in the grid's order: red fastest, then green, then blue.
        let expected = Reference.map(Reference.grid(33), GradeCases.reference(id, values))
        let error = Reference.maxError(cube.values, expected)
        GradeCases.record("\(name) composed at 33³ through the host", error)
        #expect(error <= 1.0 / 255)
    }

    @Test("identity parameters give the identity cube bit for bit, composed and baked by the host",
          arguments: GradeCases.ids)
    func identityGivesIdentity(id: String) throws {
        let adjustment = try #require(Self.registry.adjustment(id: id), "the host loads \(id)")
        let identity = try ColorCube.identity(size: 33)
        let composed = try Self.compose(id, adjustment.settings(for: adjustment.identityParameters))
        // The composer leaves an identity step out; the host's own bake runs the plugin on every entry.
        let baked = try adjustment.bakedCube(size: 33, parameters: adjustment.identityParameters)
        #expect(composed.values.map(\.bitPattern) == identity.values.map(\.bitPattern))
        #expect(baked.values.map(\.bitPattern) == identity.values.map(\.bitPattern))
    }
}
