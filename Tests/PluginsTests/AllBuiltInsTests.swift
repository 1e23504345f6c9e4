import PluginHost
import Testing

@Suite("Built-in plugins together")
struct AllBuiltInsTests {
    @Test("at least 16 adjustments from at least 4 plugin files load with no configuration and no refusal")
    func builtInsLoad() {
        let registry = BuiltInPlugins.registry
        #expect(registry.refusals.isEmpty, "\(registry.refusals)")
        #expect(registry.adjustments.count >= 16)
        #expect(Set(registry.adjustments.map(\.pluginPath)).count >= 4)
    }

    @Test("every built-in adjustment at its identity parameters returns a 33³ grid within 1e-6",
          arguments: BuiltInPlugins.registry.adjustments.map(\.id))
    func identity(id: String) throws {
        let adjustment = try BuiltInPlugins.adjustment(id)
        let grid = BuiltInPlugins.grid(33)
        let output = try BuiltInPlugins.apply(adjustment, grid, values: adjustment.identityParameters)
        #expect(BuiltInPlugins.maxDifference(output, grid) <= 1e-6)
    }

    @Test("every built-in adjustment at its defaults maps the grid into 0…1",
          arguments: BuiltInPlugins.registry.adjustments.map(\.id))
    func defaultsStayInRange(id: String) throws {
        let adjustment = try BuiltInPlugins.adjustment(id)
        let output = try BuiltInPlugins.apply(adjustment, BuiltInPlugins.grid(17), values: adjustment.defaultParameters)
        #expect(output.allSatisfy { $0 >= 0 && $0 <= 1 })
    }
}
