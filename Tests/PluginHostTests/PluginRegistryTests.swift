import Foundation
import PluginHost
import Testing

@Suite("PluginRegistry")
struct PluginRegistryTests {
    private func builtInDirectory() throws -> String {
        try #require(PluginTestSupport.buildDirectory, "the test binary's folder holds the built-in plugins")
    }

    /// The first ```c block of docs/PLUGINS.md: the guide's example is compiled exactly as printed.
    private func documentedExample() throws -> String {
        let guide = try String(contentsOf: PluginTestSupport.packageRoot.appendingPathComponent("docs/PLUGINS.md"),
                               encoding: .utf8)
        let start = try #require(guide.range(of: "```c\n"), "docs/PLUGINS.md has a C example")
        let end = try #require(guide.range(of: "\n```", range: start.upperBound..<guide.endIndex))
        return String(guide[start.upperBound..<end.lowerBound])
    }

    @Test("the documented C example, built with cc -shared -fPIC, is listed and applied")
    func documentedExampleLoads() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let library = try PluginTestSupport.compilePlugin(try documentedExample(), named: "sepia_plugin", in: directory)
        let registry = PluginRegistry.load(searchPaths: [directory, try builtInDirectory()])
        #expect(registry.refusals.isEmpty, "\(registry.refusals)")

        let sepia = try #require(registry.adjustment(id: "example.sepia"))
        #expect(sepia.pluginPath == library)
        #expect(sepia.pluginName == "Example Sepia")
        let plugin = try #require(registry.plugins.first { $0.path == library })
        #expect(plugin.adjustmentIDs == ["example.sepia", "example.invert", "example.lift"])
        #expect(plugin.abiVersion == 2)

        // The sepia matrix from the guide, evaluated here independently of the plugin.
        let (r, g, b) = (0.2, 0.4, 0.6)
        let expected = [0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b,
                         0.272 * r + 0.534 * g + 0.131 * b]
        let input: [Float] = [Float(r), Float(g), Float(b)]
        var output = [Float](repeating: -1, count: 3)
        let parameters = try sepia.resolveParameters(["amount": 1])
        try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { try sepia.apply(source, $0, parameters: parameters) }
        }
        for channel in 0..<3 {
            #expect(abs(Double(output[channel]) - expected[channel]) < 1e-6)
        }

        let invert = try #require(registry.adjustment(id: "example.invert"))
        #expect(invert.parameters.first?.kind == .bool)
        #expect(throws: PluginHostError.parameterNotBoolean(
            adjustment: "example.invert", name: "enabled", value: 0.5)) {
            try invert.resolveParameters(["enabled": 0.5])
        }
        // The colour wheel: v' = v + lift (1 - v) per channel.
        let lift = try #require(registry.adjustment(id: "example.lift"))
        #expect(lift.parameters.first?.kind == .color && lift.parameters.first?.isWheel == true)
        let lifted = try lift.resolveParameters(["lift": .color(SIMD3(0.2, 0, -0.1))])
        var colour = [Float](repeating: -1, count: 3)
        try input.withUnsafeBufferPointer { source in
            try colour.withUnsafeMutableBufferPointer { try lift.apply(source, $0, parameters: lifted) }
        }
        let liftedExpected = [r + 0.2 * (1 - r), g, b - 0.1 * (1 - b)]
        for channel in 0..<3 {
            #expect(abs(Double(colour[channel]) - liftedExpected[channel]) < 1e-6)
        }
        #expect(registry.adjustment(id: "tone.exposure") != nil, "built-ins load alongside")
    }

    @Test("each broken file is refused with its own reason and the built-in plugins still load")
    func refusalsDoNotStopOthers() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let abi = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.abi", abiVersion: "3u"), named: "abi", in: directory)
        let entry = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.entry", entry: "entry_with_a_typo"), named: "entry", in: directory)
        let range = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.range", defaultValue: "3.0f"), named: "range", in: directory)
        let notes = directory + "/notes.so"
        try "not a library".write(toFile: notes, atomically: true, encoding: .utf8)
        let good = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.good"), named: "good", in: directory)

        let registry = PluginRegistry.load(searchPaths: [directory, try builtInDirectory()])
        let byPath = Dictionary(grouping: registry.refusals, by: \.path)
        #expect(byPath[abi]?.map(\.reason.code) == ["abi_mismatch"])
        #expect(byPath[entry]?.map(\.reason.code) == ["missing_entry"])
        #expect(byPath[range]?.map(\.reason.code) == ["invalid_descriptor"])
        #expect(byPath[notes]?.map(\.reason.code) == ["not_loadable"])
        #expect(registry.refusals.count == 4)
        #expect(Set(registry.refusals.map(\.message)).count == 4, "every refusal says something different")

        #expect(registry.adjustment(id: "test.good")?.pluginPath == good)
        #expect(registry.plugins.filter { !$0.path.hasPrefix(directory) }.count >= 4)
        for id in ["tone.exposure", "wb.temperature", "color.saturation", "blend.screen"] {
            #expect(registry.adjustment(id: id) != nil, "\(id) still loads")
        }
    }

    @Test("a duplicate id: the file found first keeps it, the other is refused naming both")
    func duplicateID() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.same"), named: "a_first", in: directory)
        let second = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.same"), named: "b_second", in: directory)
        let registry = PluginRegistry.load(searchPaths: [directory])
        #expect(registry.adjustment(id: "test.same")?.pluginPath == first)
        #expect(registry.refusals == [PluginRefusal(
            path: second, adjustmentID: "test.same", reason: .duplicateID("test.same", firstPath: first))])
        let message = try #require(registry.refusals.first?.description)
        #expect(message.contains(second) && message.contains(first) && message.contains("test.same"))
        #expect(registry.adjustments.map(\.id) == ["test.same"])
    }

    @Test("a missing plugin folder is reported and the rest of the path is still searched")
    func missingFolder() throws {
        let missing = "/nonexistent/lookstudio-plugins-\(UUID().uuidString)"
        let registry = PluginRegistry.load(searchPaths: [missing, try builtInDirectory()])
        #expect(registry.refusals.map(\.path) == [missing])
        #expect(registry.refusals.first?.reason.code == "unreadable_directory")
        #expect(registry.adjustments.count >= 16)
    }

    @Test("the same folder twice loads each file once")
    func folderListedTwice() throws {
        let builtIn = try builtInDirectory()
        let registry = PluginRegistry.load(searchPaths: [builtIn, builtIn])
        #expect(registry.refusals.isEmpty, "\(registry.refusals)")
        #expect(Set(registry.plugins.map(\.path)).count == registry.plugins.count)
    }

    @Test("requireAdjustment names the unknown id and lists the known ones")
    func unknownAdjustment() throws {
        let registry = PluginRegistry.load(searchPaths: [try builtInDirectory()])
        #expect(throws: PluginHostError.unknownAdjustment(id: "tone.nope", known: registry.adjustments.map(\.id))) {
            try registry.requireAdjustment(id: "tone.nope")
        }
    }
}
