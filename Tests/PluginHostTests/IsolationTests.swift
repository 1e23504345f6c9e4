import Foundation
@testable import PluginHost
import Testing

/// Plugins out of process (issue 24): a crash, exit, hang or garbage becomes an error naming the plugin and step, and
/// the other adjustments keep working.
@Suite("Plugin isolation")
struct IsolationTests {
    /// The `lookstudio` that `swift build` put next to this test binary, as the plugin host.
    static func configuration(timeout: Double = 10) throws -> PluginHostConfiguration {
        let directory = try #require(PluginTestSupport.buildDirectory)
        let executable = directory + "/lookstudio"
        try #require(FileManager.default.isExecutableFile(atPath: executable), "swift build built lookstudio")
        return PluginHostConfiguration(executable: executable, timeout: timeout, maximumProcesses: 2)
    }

    /// A plugin with one parameterless adjustment `id` whose apply runs `body` (C statements; `in`, `out`, `n`),
    /// and whose entry runs `entry` first.
    static func plugin(id: String, body: String = "", entry: String = "") -> String {
        """
        #include "lookstudio_plugin.h"
        #include <math.h>
        #include <signal.h>
        #include <stdio.h>
        #include <unistd.h>
        static void apply(const float *in, float *out, size_t n, const lookstudio_value *params) {
            (void)params;
            for (size_t i = 0; i < 3 * n; i++) out[i] = in[i];
            \(body)
        }
        static const lookstudio_adjustment adjustments[] = {{"\(id)", "Faulty", "Test", "", NULL, 0, apply}};
        static const lookstudio_plugin plugin = {LOOKSTUDIO_PLUGIN_ABI_VERSION, "Faulty", "1", adjustments, 1};
        LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void) {
            \(entry)
            return &plugin;
        }
        """
    }

    /// The faults an apply function can have, by adjustment id.
    static let faults: [(id: String, body: String, expected: String)] = [
        ("fault.segv", "raise(SIGSEGV);", "crashed the plugin host process (signal 11"),
        ("fault.exit", "_exit(0);", "exit status 0 (a plugin must return, never call exit)"),
        ("fault.hang", "for (;;) pause();", "did not return within 1 s"),
        ("fault.nan", "out[3 * (n / 2)] = NAN;", "returned NaN (first at point"),
        ("fault.inf", "out[4] = -INFINITY;", "returned -infinity (first at point 2"),
        ("fault.huge", "out[0] = 1e30f;", "returned 1e+30 (first at point 1"),
        ("fault.print", "printf(\"noise on stdout\\n\"); fflush(stdout);", ""),
    ]

    private func evaluate(_ adjustment: Adjustment, points: Int = 4913, step: Int? = 3) throws(PluginHostError)
        -> [Float]
    {
        var values = [Float](repeating: 0.5, count: 3 * points)
        for i in values.indices { values[i] = Float(i % 97) / 96 }
        let input = values
        var output = [Float](repeating: 0, count: input.count)
        try input.withUnsafeBufferPointer { (source) throws(PluginHostError) in
            try output.withUnsafeMutableBufferPointer { (target) throws(PluginHostError) in
                try adjustment.apply(source, target, parameters: [], step: step)
            }
        }
        return output
    }

    @Test("every fault in apply becomes an error naming the plugin file, adjustment and step; the rest keeps working")
    func faultsInApply() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, fault) in Self.faults.enumerated() {
            try PluginTestSupport.compilePlugin(Self.plugin(id: fault.id, body: fault.body), named: "f\(index)",
                                                in: directory)
        }
        let registry = PluginRegistry.load(searchPaths: [directory],
                                           isolation: .outOfProcess(try Self.configuration(timeout: 1)))
        #expect(registry.refusals.isEmpty, "\(registry.refusals)")
        #expect(registry.adjustments.count == Self.faults.count)
        let quiet = try #require(registry.adjustment(id: "fault.print"))
        for (index, fault) in Self.faults.enumerated() where !fault.expected.isEmpty {
            let adjustment = try #require(registry.adjustment(id: fault.id))
            do {
                _ = try evaluate(adjustment)
                Issue.record("\(fault.id) did not fail")
            } catch {
                let prefix = "plugin \(directory)/f\(index).so (adjustment \(fault.id), recipe step 3): "
                #expect(error.description.hasPrefix(prefix), "\(error)")
                #expect(error.description.contains(fault.expected), "\(error)")
            }
            // The printing plugin still answers, with its input unchanged: stdout noise never reaches the frames.
            let output = try evaluate(quiet, points: 10)
            let expected: [Float] = (0..<30).map { (i: Int) -> Float in Float(i % 97) / 96 }
            #expect(output == expected)
        }
    }

    @Test("out of process gives bit-identical results to in process on a 33³ lattice")
    func sameResults() throws {
        let builtIn = try #require(PluginTestSupport.buildDirectory)
        let local = PluginRegistry.load(searchPaths: [builtIn])
        let remote = PluginRegistry.load(searchPaths: [builtIn], isolation: .outOfProcess(try Self.configuration()))
        #expect(remote.adjustments == local.adjustments)
        #expect(remote.plugins == local.plugins)
        #expect(remote.isolation != .inProcess && local.isolation == .inProcess)
        let grid: [Float] = (0..<(3 * 33 * 33 * 33)).map { (i: Int) -> Float in Float(i % 33) / 32 }
        for adjustment in local.adjustments {
            let other = try #require(remote.adjustment(id: adjustment.id))
            let parameters = adjustment.defaultParameters
            var a = grid, b = grid
            try a.withUnsafeMutableBufferPointer {
                try adjustment.apply(UnsafeBufferPointer($0), $0, parameters: parameters)
            }
            try b.withUnsafeMutableBufferPointer {
                try other.apply(UnsafeBufferPointer($0), $0, parameters: parameters)
            }
            #expect(a == b, "\(adjustment.id)")
        }
    }

    @Test("typed values reach apply intact through the plugin host, and a typed grade matches in process bit for bit")
    func typedValuesThroughHost() throws {
        let directory = try PluginTestSupport.typedPluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let local = PluginRegistry.load(searchPaths: [directory])
        let remote = PluginRegistry.load(searchPaths: [directory], isolation: .outOfProcess(try Self.configuration()))
        #expect(remote.adjustments == local.adjustments, "descriptors of every kind cross the protocol unchanged")
        let echo = try #require(remote.adjustment(id: "typed.echo"))
        let output = try PluginTestSupport.run(echo, values: try echo.resolveParameters(PluginTestSupport.echoSettings))
        #expect(Array(output.prefix(PluginTestSupport.echoed.count)) == PluginTestSupport.echoed)
        let settings: [String: ParameterSetting] = [
            "master": .curve([SIMD2(0, 0.1), SIMD2(0.4, 0.3), SIMD2(1, 0.9)]), "slope": .color(SIMD3(1.2, 1, 0.7)),
            "style": "no-clamp",
        ]
        let grid: [Float] = (0..<(3 * 9 * 9 * 9)).map { (i: Int) -> Float in Float(i % 9) / 8 }
        var results: [[Float]] = []
        for registry in [local, remote] {
            let grade = try #require(registry.adjustment(id: "typed.grade"))
            let values = try grade.resolveParameters(settings)
            var rgb = grid
            try rgb.withUnsafeMutableBufferPointer { try grade.apply(UnsafeBufferPointer($0), $0, parameters: values) }
            results.append(rgb)
        }
        #expect(results[0] == results[1])
        #expect(results[0] != grid)
    }

    @Test("a plugin that crashes, exits or hangs while loading is refused by name; the others load")
    func faultsWhileLoading() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PluginTestSupport.compilePlugin(Self.plugin(id: "load.segv", entry: "raise(SIGSEGV);"), named: "a_segv",
                                            in: directory)
        try PluginTestSupport.compilePlugin(Self.plugin(id: "load.good"), named: "b_good", in: directory)
        try PluginTestSupport.compilePlugin(Self.plugin(id: "load.exit", entry: "_exit(3);"), named: "c_exit",
                                            in: directory)
        try PluginTestSupport.compilePlugin(Self.plugin(id: "load.hang", entry: "for (;;) pause();"), named: "d_hang",
                                            in: directory)
        try PluginTestSupport.compilePlugin(Self.plugin(id: "load.later"), named: "e_later", in: directory)
        let registry = PluginRegistry.load(searchPaths: [directory],
                                           isolation: .outOfProcess(try Self.configuration(timeout: 1)))
        #expect(registry.adjustments.map(\.id) == ["load.good", "load.later"])
        let refused = Dictionary(uniqueKeysWithValues: registry.refusals.map { ($0.path, $0) })
        #expect(refused.count == 3)
        #expect(refused["\(directory)/a_segv.so"]?.message.contains("signal 11") == true)
        #expect(refused["\(directory)/c_exit.so"]?.message.contains("exit status 3") == true)
        #expect(refused["\(directory)/d_hang.so"]?.message.contains("hung the plugin host for 1 s") == true)
        #expect(registry.refusals.allSatisfy { $0.reason.code == "crashed_on_load" })
        // The surviving child (and any replacement) evaluates the plugins that loaded.
        let good = try #require(registry.adjustment(id: "load.good"))
        let expected: [Float] = (0..<9).map { (i: Int) -> Float in Float(i) / 96 }
        #expect(try evaluate(good, points: 3) == expected)
    }

    @Test("a host executable that cannot start leaves an empty registry with one refusal saying what to do")
    func missingHost() throws {
        let configuration = PluginHostConfiguration(executable: "/nonexistent/lookstudio", timeout: 1)
        let registry = PluginRegistry.load(searchPaths: [try #require(PluginTestSupport.buildDirectory)],
                                           isolation: .outOfProcess(configuration))
        #expect(registry.adjustments.isEmpty)
        #expect(registry.refusals.map(\.reason.code) == ["host_unavailable"])
        let message = try #require(registry.refusals.first?.description)
        #expect(message.contains("set $LOOKSTUDIO_PLUGIN_HOST to a lookstudio executable, or set "
                                 + "$LOOKSTUDIO_PLUGINS_IN_PROCESS=1"), "\(message)")
        #expect(!message.contains("--"), "every front end reads the variables; only the command line has options")
    }

    @Test("in process, NaN is refused naming the step too")
    func inProcessOutputCheck() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PluginTestSupport.compilePlugin(Self.plugin(id: "local.nan", body: "out[1] = NAN;"), named: "nan",
                                            in: directory)
        let adjustment = try #require(PluginRegistry.load(searchPaths: [directory]).adjustment(id: "local.nan"))
        #expect(throws: PluginHostError.pluginFailed(PluginFailure(
            path: directory + "/nan.so", adjustmentID: "local.nan", step: 7,
            problem: "returned NaN (first at point 1 of 8); an adjustment must return finite numbers"))) {
            _ = try evaluate(adjustment, points: 8, step: 7)
        }
    }

    @Test("isolation and time limit come from the option, then the environment, then the defaults")
    func standardConfiguration() throws {
        #expect(try PluginIsolation.standard(inProcess: true, environment: [:]) == .inProcess)
        #expect(try PluginIsolation.standard(environment: ["LOOKSTUDIO_PLUGINS_IN_PROCESS": "1"]) == .inProcess)
        let named = try PluginHostConfiguration.standard(
            environment: ["LOOKSTUDIO_PLUGIN_HOST": "/opt/ls/lookstudio", "LOOKSTUDIO_PLUGIN_TIMEOUT": "2.5"])
        #expect(named.executable == "/opt/ls/lookstudio" && named.timeout == 2.5)
        let own = try PluginHostConfiguration.standard(environment: [:], timeout: 4)
        #expect(own.timeout == 4)
        #expect(own.executable == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        #expect(try PluginHostConfiguration.standard(environment: [:]).timeout == 10)
        #expect(throws: PluginHostError.invalidTimeout("soon", from: "LOOKSTUDIO_PLUGIN_TIMEOUT")) {
            try PluginHostConfiguration.standard(environment: ["LOOKSTUDIO_PLUGIN_TIMEOUT": "soon"])
        }
        #expect(throws: PluginHostError.invalidTimeout("-1", from: nil)) {
            try PluginHostConfiguration.standard(environment: [:], timeout: -1)
        }
    }

    @Test("the time limit variable must be seconds above 0 and at most a day; empty is unset; the option replaces it")
    func timeoutVariable() throws {
        let variable = "LOOKSTUDIO_PLUGIN_TIMEOUT"
        for text in ["0", "-1", "soon", "nan", "inf", "1e300", "86401", " 5"] {
            #expect(throws: PluginHostError.invalidTimeout(text, from: variable)) {
                try PluginHostConfiguration.timeout(option: nil, environment: [variable: text])
            }
        }
        #expect(try PluginHostConfiguration.timeout(option: nil, environment: [variable: "86400"]) == 86400)
        #expect(try PluginHostConfiguration.timeout(option: nil, environment: [variable: "0.25"]) == 0.25)
        #expect(try PluginHostConfiguration.timeout(option: nil, environment: [variable: ""]) == 10)
        #expect(try PluginHostConfiguration.timeout(option: 3, environment: [variable: "0"]) == 3)
        #expect(throws: PluginHostError.invalidTimeout("100000", from: nil)) {
            try PluginHostConfiguration.timeout(option: 100_000, environment: [:])
        }
        #expect(PluginHostError.invalidTimeout("0", from: variable).description
                == "LOOKSTUDIO_PLUGIN_TIMEOUT must be a number of seconds above 0 and at most 86400, such as 30 or "
                + "2.5 (got \"0\")")
    }
}
