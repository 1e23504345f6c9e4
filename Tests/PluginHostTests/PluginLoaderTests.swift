import Foundation
@testable import PluginHost
import Testing

@Suite("PluginLoader")
struct PluginLoaderTests {
    private func refusal(for source: String, named name: String = "plugin") throws -> PluginRefusal? {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(source, named: name, in: directory)
        switch PluginLoader.load(path: path) {
        case .success: return nil
        case .failure(let refusal):
            #expect(refusal.path == path, "a refusal names the file")
            return refusal
        }
    }

    @Test("a well-formed plugin loads and its descriptor is copied field by field")
    func loadsValidPlugin() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(
            PluginTestSupport.pluginSource(id: "test.gain", defaultValue: "0.25f"), named: "gain", in: directory)
        let candidate = try PluginLoader.load(path: path).get()
        #expect(candidate.name == "Test Gain")
        #expect(candidate.version == "0.1")
        let adjustment = try #require(candidate.adjustments.first)
        #expect(adjustment.id == "test.gain")
        #expect(adjustment.category == "Test")
        #expect(adjustment.pluginPath == path)
        #expect(adjustment.parameters == [ParameterDescriptor(
            name: "gain", displayName: "Gain", description: "Multiplier minus one.", kind: .scalar,
            min: -1, max: 1, defaultValue: 0.25, identityValue: 0)])
    }

    @Test("an ABI version other than 1 and 2 is refused naming it and the versions this host loads")
    func wrongABIVersion() throws {
        for found in [0, 3, 99] {
            let source = PluginTestSupport.pluginSource(id: "test.abi", abiVersion: "\(found)u")
            let refusal = try #require(try refusal(for: source))
            #expect(refusal.reason == .abiMismatch(found: UInt32(found), supported: [1, 2]))
            #expect(refusal.message.hasPrefix("built for plugin ABI version \(found), but this lookstudio loads "
                + "versions 1 and 2; rebuild"))
        }
    }

    @Test("a library without the entry symbol is refused as missing the entry")
    func missingEntry() throws {
        let source = PluginTestSupport.pluginSource(id: "test.entry", entry: "not_the_entry")
        let refusal = try #require(try refusal(for: source))
        #expect(refusal.reason.code == "missing_entry")
        #expect(refusal.message.contains("lookstudio_plugin_entry"))
    }

    @Test("a default outside min…max is refused naming the adjustment, parameter and range")
    func defaultOutsideRange() throws {
        let source = PluginTestSupport.pluginSource(id: "test.range", defaultValue: "3.0f")
        let refusal = try #require(try refusal(for: source))
        #expect(refusal.reason.code == "invalid_descriptor")
        #expect(refusal.message.contains("test.range parameter gain: default 3.0 is outside its range -1.0…1.0"))
    }

    @Test("an identity value outside the range is refused")
    func identityOutsideRange() throws {
        let source = PluginTestSupport.pluginSource(id: "test.identity", identityValue: "-2.0f")
        let refusal = try #require(try refusal(for: source))
        #expect(refusal.message.contains("identity value -2.0 is outside"))
    }

    @Test("min above max, a bad bool range and an unknown kind are refused")
    func rangeAndKindRules() throws {
        let reversed = try #require(try refusal(
            for: PluginTestSupport.pluginSource(id: "test.rev", range: "1.0f, -1.0f")))
        #expect(reversed.message.contains("min 1.0 is greater than max -1.0"))
        let bool = try #require(try refusal(for: PluginTestSupport.pluginSource(
            id: "test.flag", kind: "LOOKSTUDIO_PARAM_BOOL", range: "0.0f, 2.0f")))
        #expect(bool.message.contains("a bool parameter has min 0, max 1"))
        let kind = try #require(try refusal(for: PluginTestSupport.pluginSource(id: "test.kind", kind: "7")))
        #expect(kind.message.contains("kind 7 is not one of"))
    }

    @Test("an id not of the form domain.name is refused")
    func badIdentifier() throws {
        let refusal = try #require(try refusal(for: PluginTestSupport.pluginSource(id: "Tone-Contrast")))
        #expect(refusal.message.contains("\"Tone-Contrast\" is not of the form domain.name"))
    }

    @Test("a NULL apply function is refused")
    func nullApply() throws {
        let refusal = try #require(try refusal(for: PluginTestSupport.pluginSource(id: "test.null", apply: "NULL")))
        #expect(refusal.message.contains("test.null's apply function is NULL"))
    }

    @Test("a file that is not a shared library is refused as not loadable")
    func notASharedLibrary() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/notes.so"
        try "these are notes, not a library\n".write(toFile: path, atomically: true, encoding: .utf8)
        guard case .failure(let refusal) = PluginLoader.load(path: path) else {
            Issue.record("a text file loaded as a plugin")
            return
        }
        #expect(refusal.reason.code == "not_loadable")
        #expect(refusal.description.hasPrefix(path + ": not a loadable shared library"))
    }

    @Test("ids are two lowercase words joined by one dot; parameter names are one word")
    func identifierRules() {
        #expect(PluginLoader.isIdentifier("tone.contrast", parts: 2))
        #expect(PluginLoader.isIdentifier("acme2.cross_process", parts: 2))
        #expect(!PluginLoader.isIdentifier("tone", parts: 2))
        #expect(!PluginLoader.isIdentifier("a.b.c", parts: 2))
        #expect(!PluginLoader.isIdentifier("tone.", parts: 2))
        #expect(!PluginLoader.isIdentifier("Tone.contrast", parts: 2))
        #expect(!PluginLoader.isIdentifier("tone.2x", parts: 2))
        #expect(PluginLoader.isIdentifier("filter_hue", parts: 1))
        #expect(!PluginLoader.isIdentifier("filter-hue", parts: 1))
    }
}
