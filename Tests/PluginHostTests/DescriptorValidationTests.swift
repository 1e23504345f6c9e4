import Foundation
import PluginABI
@testable import PluginHost
import Testing

/// Hostile descriptors (issue 24): unsigned counts, NULL arrays, over-long, non-UTF-8 and control-character strings.
@Suite("Descriptor validation")
struct DescriptorValidationTests {
    /// Builds `source` as a plugin and returns the refusal, failing the test when the plugin loads.
    private func refusal(_ source: String) throws -> PluginRefusal {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(source, named: "hostile", in: directory)
        switch PluginLoader.load(path: path) {
        case .success(let candidate):
            Issue.record("loaded with \(candidate.adjustments.map(\.parameters.count)) parameters")
            throw PluginTestSupport.CompileFailure(source: "hostile", diagnostics: "the plugin loaded")
        case .failure(let refusal):
            #expect(refusal.path == path, "the refusal names the plugin file")
            #expect(refusal.reason.code == "invalid_descriptor")
            return refusal
        }
    }

    /// A plugin whose one adjustment and whose plugin descriptor are written by `setup`, C statements run by the
    /// entry before it returns (so sizes and strings can be built at run time).
    private func source(
        parameters: String = "params", parameterCount: String = "1", adjustments: String = "adjustments",
        adjustmentCount: String = "1", setup: String = ""
    ) -> String {
        """
        #include "lookstudio_plugin.h"
        #include <stdint.h>
        #include <string.h>
        static void apply(const float *in, float *out, size_t n, const lookstudio_value *p) {
            (void)p;
            for (size_t i = 0; i < 3 * n; i++) out[i] = in[i];
        }
        static lookstudio_parameter params[] = {
            {"amount", "Amount", "", LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
        };
        static lookstudio_adjustment adjustments[] = {
            {"test.hostile", "Hostile", "Test", "", NULL, 0, apply},
        };
        static lookstudio_plugin plugin = {LOOKSTUDIO_PLUGIN_ABI_VERSION, "Hostile", "1", NULL, 0};
        LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void) {
            adjustments[0].parameters = \(parameters);
            adjustments[0].parameter_count = \(parameterCount);
            plugin.adjustments = \(adjustments);
            plugin.adjustment_count = \(adjustmentCount);
            \(setup)
            return &plugin;
        }
        """
    }

    @Test("parameter_count = SIZE_MAX with NULL parameters is refused with the unsigned count")
    func parameterCountSizeMax() throws {
        let refused = try refusal(source(parameters: "NULL", parameterCount: "SIZE_MAX"))
        #expect(refused.message.contains("test.hostile declares 18446744073709551615 parameters; the limit is 32"))
    }

    @Test("parameter_count = SIZE_MAX with real parameters is refused too")
    func parameterCountSizeMaxWithArray() throws {
        let refused = try refusal(source(parameterCount: "SIZE_MAX"))
        #expect(refused.message.contains("18446744073709551615 parameters"))
    }

    @Test("NULL parameters with a count of 1 is refused naming the count")
    func nullParameters() throws {
        let refused = try refusal(source(parameters: "NULL", parameterCount: "1"))
        #expect(refused.message.contains("test.hostile's parameters is NULL but parameter_count is 1"))
    }

    @Test("adjustment_count = SIZE_MAX and NULL adjustments are refused")
    func adjustmentCounts() throws {
        let huge = try refusal(source(adjustmentCount: "SIZE_MAX"))
        #expect(huge.message.contains("adjustment_count is 18446744073709551615; a plugin offers 1 to 1024"))
        let null = try refusal(source(adjustments: "NULL", adjustmentCount: "1"))
        #expect(null.message.contains("adjustments is NULL but adjustment_count is 1"))
        let zero = try refusal(source(adjustmentCount: "0"))
        #expect(zero.message.contains("adjustment_count is 0"))
    }

    @Test("a 1 MB display name is refused as longer than 256 bytes")
    func megabyteDisplayName() throws {
        let setup = """
            static char big[(1 << 20) + 1];
            memset(big, 'A', 1 << 20);
            adjustments[0].display_name = big;
            """
        let refused = try refusal(source(setup: setup))
        #expect(refused.message.contains("test.hostile's display_name is longer than 256 bytes"))
    }

    @Test("a 257-byte id is refused; a 256-byte display name loads")
    func lengthBoundary() throws {
        let longID = try refusal(source(setup: """
            static char id[258];
            memset(id, 'a', 257); id[1] = '.'; id[257] = 0;
            adjustments[0].id = id;
            """))
        #expect(longID.message.contains("adjustment #1's id is longer than 256 bytes"))

        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(source(setup: """
            static char name[257];
            memset(name, 'N', 256); name[256] = 0;
            adjustments[0].display_name = name;
            """), named: "boundary", in: directory)
        let candidate = try PluginLoader.load(path: path).get()
        #expect(candidate.adjustments.first?.displayName.utf8.count == 256)
    }

    @Test("a description over 4096 bytes is refused")
    func longDescription() throws {
        let refused = try refusal(source(setup: """
            static char text[5000];
            memset(text, 'd', 4999); text[4999] = 0;
            adjustments[0].description = text;
            """))
        #expect(refused.message.contains("test.hostile's description is longer than 4096 bytes"))
    }

    @Test("invalid UTF-8 and control characters (ESC, newline) are refused naming the field")
    func encodingAndControls() throws {
        let utf8 = try refusal(source(setup: "plugin.name = \"Bad \\xff name\";"))
        #expect(utf8.message.contains("the plugin name is not valid UTF-8"))
        let escape = try refusal(source(setup: "adjustments[0].display_name = \"Evil \\x1b]0;owned\\x07\";"))
        #expect(escape.message.contains("test.hostile's display_name contains the control character U+1B"))
        let newline = try refusal(source(setup: "params[0].display_name = \"two\\nlines\";"))
        #expect(newline.message.contains("test.hostile parameter amount's display_name contains the control "
            + "character U+A"))
    }

    @Test("a NULL pointer with a zero count is fine: a parameterless adjustment loads")
    func nullWithZeroCount() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try PluginTestSupport.compilePlugin(
            source(parameters: "NULL", parameterCount: "0"), named: "plain", in: directory)
        let candidate = try PluginLoader.load(path: path).get()
        #expect(candidate.adjustments.map(\.id) == ["test.hostile"])
        #expect(candidate.adjustments.first?.parameters.isEmpty == true)
    }

    @Test("PluginDescriptorCheck (the fuzzer's entry) accepts a valid in-memory descriptor and refuses SIZE_MAX")
    func inMemoryCheck() throws {
        let apply: lookstudio_apply_fn = { _, _, _, _ in }
        try "amount".withCString { name in
            try "test.memory".withCString { id in
                var parameter = lookstudio_parameter()
                (parameter.name, parameter.display_name, parameter.min, parameter.max) = (name, name, -1, 1)
                var adjustment = lookstudio_adjustment(id: id, display_name: id, category: id, description: nil,
                                                       parameters: nil, parameter_count: 1, apply: apply)
                try withUnsafePointer(to: &parameter) { parameters in
                    adjustment.parameters = parameters
                    var plugin = lookstudio_plugin(abi_version: LOOKSTUDIO_PLUGIN_ABI_VERSION, name: id, version: id,
                                                   adjustments: nil, adjustment_count: 1)
                    try withUnsafePointer(to: &adjustment) { adjustments in
                        plugin.adjustments = adjustments
                        #expect(PluginDescriptorCheck.refusal(for: &plugin, path: "/mem.so") == nil)
                    }
                    adjustment.parameter_count = Int(bitPattern: UInt.max)
                    adjustment.parameters = nil
                    try withUnsafePointer(to: &adjustment) { adjustments in
                        plugin.adjustments = adjustments
                        let refusal = try #require(PluginDescriptorCheck.refusal(for: &plugin, path: "/mem.so"))
                        #expect(refusal.description.hasPrefix("/mem.so: invalid descriptor: test.memory declares "
                            + "18446744073709551615 parameters"))
                    }
                }
            }
        }
    }
}
