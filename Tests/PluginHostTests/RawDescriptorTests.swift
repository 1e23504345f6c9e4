import Foundation
import LookStudioTestSupport
import PluginABI
@testable import PluginHost
import Testing

/// ABI version 1 plugins, read through the frozen layouts (issue 52): built from the old header, they load and apply
/// unchanged, in process and through the plugin host.
@Suite("Version 1 descriptors")
struct RawDescriptorTests {
    /// `Tests/Fixtures/plugin-v1/v1_plugin.c` built against the version 1 header beside it, in a fresh folder.
    private func buildVersionOne() throws -> (directory: String, library: String) {
        let directory = try PluginCompiler.temporaryDirectory()
        let library = try PluginCompiler.compile(
            file: PluginCompiler.versionOneDirectory + "/v1_plugin.c", named: "v1_plugin", in: directory,
            include: PluginCompiler.versionOneDirectory)
        return (directory, library)
    }

    /// `legacy.mix` over three colours with gain 0.5 and offset -0.1, through `adjustment`.
    private func mix(_ adjustment: Adjustment) throws -> [Float] {
        let parameters = try adjustment.resolveParameters(["gain": 0.5, "offset": -0.1])
        let input: [Float] = [0.2, 0.4, 0.6, 0, 0.5, 1, 0.9, 0.1, 0.05]
        var output = [Float](repeating: -1, count: input.count)
        try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { try adjustment.apply(source, $0, parameters: parameters) }
        }
        return output
    }

    /// What `legacy.mix` computes, in the plugin's double arithmetic.
    private func expectedMix() -> [Float] {
        [0.2, 0.4, 0.6, 0, 0.5, 1, 0.9, 0.1, 0.05].map { (v: Double) -> Float in
            Float(Swift.min(Swift.max(Double(Float(v)) * 1.5 + Double(Float(-0.1)), 0), 1))
        }
    }

    @Test("a plugin built from the version 1 header loads in process: numbers become scalar descriptors")
    func loadsInProcess() throws {
        let (directory, library) = try buildVersionOne()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let registry = PluginRegistry.load(searchPaths: [directory])
        #expect(registry.refusals.isEmpty, "\(registry.refusals)")
        #expect(registry.plugins.map(\.abiVersion) == [1])
        #expect(registry.plugins.first?.path == library)
        let adjustment = try #require(registry.adjustment(id: "legacy.mix"))
        #expect(adjustment.parameters == [
            ParameterDescriptor(name: "gain", displayName: "Gain", description: "Multiplier minus one.", kind: .scalar,
                                min: -1, max: 1, defaultValue: 0, identityValue: 0),
            ParameterDescriptor(name: "offset", displayName: "Offset", description: "Added after the gain.",
                                kind: .scalar, min: -0.5, max: 0.5, defaultValue: 0.1, identityValue: 0),
        ])
        #expect(try mix(adjustment) == expectedMix(), "apply gets gain, then offset, one float each")
        let identity = try adjustment.bakedCube(size: 9, parameters: adjustment.identityParameters)
        #expect(identity.distanceFromIdentity.max < 1e-6)
    }

    @Test("the same version 1 plugin through the plugin host gives the same output")
    func loadsThroughHost() throws {
        let (directory, _) = try buildVersionOne()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let registry = PluginRegistry.load(searchPaths: [directory],
                                           isolation: .outOfProcess(try IsolationTests.configuration()))
        #expect(registry.refusals.isEmpty, "\(registry.refusals)")
        #expect(registry.plugins.map(\.abiVersion) == [1])
        let adjustment = try #require(registry.adjustment(id: "legacy.mix"))
        #expect(adjustment.parameters.map(\.kind) == [.scalar, .scalar])
        #expect(try mix(adjustment) == expectedMix())
    }

    @Test("a version 1 parameter of a version 2 kind (curve) is refused: version 1 has numbers only")
    func versionOneHasNumbersOnly() throws {
        let directory = try PluginCompiler.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try String(contentsOfFile: PluginCompiler.versionOneDirectory + "/v1_plugin.c", encoding: .utf8)
            .replacingOccurrences(of: "\"Added after the gain.\", LOOKSTUDIO_PARAM_SCALAR",
                                  with: "\"Added after the gain.\", 4")
        try source.write(toFile: directory + "/curve.c", atomically: true, encoding: .utf8)
        let library = try PluginCompiler.compile(file: directory + "/curve.c", named: "curve", in: directory,
                                                 include: PluginCompiler.versionOneDirectory)
        let refusal = try #require(PluginRegistry.load(searchPaths: [directory]).refusals.first)
        #expect(refusal.path == library)
        #expect(refusal.message == "invalid descriptor: legacy.mix parameter offset: kind 4 is not one of 0 (scalar), "
            + "1 (angle), 2 (kelvin), 3 (bool) (ABI version 1)")
    }

    @Test("PluginDescriptorCheck reads a version 1 descriptor in memory and refuses its SIZE_MAX count")
    func inMemoryVersionOne() throws {
        let apply: lookstudio_apply_fn_v1 = { _, _, _, _ in }
        try "amount".withCString { name in
            try "old.memory".withCString { id in
                var parameter = lookstudio_parameter_v1(name: name, display_name: name, description: nil, kind: 0,
                                                        min: -1, max: 1, default_value: 0, identity_value: 0)
                try withUnsafePointer(to: &parameter) { parameters in
                    var adjustment = lookstudio_adjustment_v1(id: id, display_name: id, category: id, description: nil,
                                                              parameters: parameters, parameter_count: 1, apply: apply)
                    try withUnsafePointer(to: &adjustment) { adjustments in
                        var plugin = lookstudio_plugin_v1(abi_version: LOOKSTUDIO_PLUGIN_ABI_VERSION_1, name: id,
                                                          version: id, adjustments: adjustments, adjustment_count: 1)
                        #expect(PluginDescriptorCheck.refusal(for: &plugin, path: "/old.so") == nil)
                        plugin.adjustment_count = Int(bitPattern: UInt.max)
                        let refusal = try #require(PluginDescriptorCheck.refusal(for: &plugin, path: "/old.so"))
                        #expect(refusal.description == "/old.so: invalid descriptor: adjustment_count is "
                            + "18446744073709551615; a plugin offers 1 to 1024")
                    }
                }
            }
        }
    }
}
