import Foundation
@testable import PluginHost
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The plugin host's memory cap and process group (issue 56 item 6): a runaway allocation is stopped and reported
/// as memory, a plugin that forks and crashes is reported as a crash (not a timeout) and leaves nothing running.
@Suite("Plugin host confinement", .serialized)
struct HostConfinementTests {
    static func registry(_ source: String, in directory: String, timeout: Double, memoryMiB: Int) throws
        -> PluginRegistry {
        try PluginTestSupport.compilePlugin(source, named: "p", in: directory)
        var configuration = try IsolationTests.configuration(timeout: timeout)
        configuration.memoryMiB = memoryMiB
        return PluginRegistry.load(searchPaths: [directory], isolation: .outOfProcess(configuration))
    }

    static func evaluate(_ registry: PluginRegistry, _ id: String) throws -> String {
        let adjustment = try #require(registry.adjustment(id: id))
        var values = [Float](repeating: 0.5, count: 3 * 125)
        do {
            try values.withUnsafeMutableBufferPointer {
                try adjustment.apply(UnsafeBufferPointer($0), $0, parameters: [], step: 1)
            }
            return ""
        } catch {
            return "\(error)"
        }
    }

    /// True when `pid` runs (a zombie, dead but not yet collected by its new parent, counts as ended).
    static func running(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test("an allocation past the address-space cap is reported as running out of memory")
    func memoryCapIsReportedAsSuch() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Touches 64 MiB blocks until malloc fails, then uses the NULL it got, as a careless plugin would.
        let body = """
            for (;;) { char *block = malloc(64 << 20); memset(block, 1, 64 << 20); }
            """
        let source = IsolationTests.plugin(id: "fault.memory", body: body)
            .replacingOccurrences(of: "#include <math.h>", with: "#include <math.h>\n#include <stdlib.h>\n#include <string.h>")
        let registry = try Self.registry(source, in: directory, timeout: 20, memoryMiB: 512)
        let start = Date()
        let message = try Self.evaluate(registry, "fault.memory")
        #expect(message.contains("ran out of memory: an allocation failed at the plugin host's address-space cap of "
            + "512 MiB"), "\(message)")
        #expect(Date().timeIntervalSince(start) < 15)
    }

    @Test("a plugin that forks and crashes is a crash, not a timeout, and its children are ended with the host")
    func forkedChildrenEndWithTheHost() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pids = directory + "/pids"
        let body = """
            for (int i = 0; i < 6; i++) {
                if (fork() == 0) {
                    FILE *f = fopen("\(pids)", "a"); fprintf(f, "%d\\n", (int)getpid()); fclose(f);
                    for (;;) pause();
                }
            }
            usleep(200000);
            raise(SIGSEGV);
            """
        let registry = try Self.registry(IsolationTests.plugin(id: "fault.fork", body: body), in: directory,
                                         timeout: 10, memoryMiB: PluginHostConfiguration.defaultMemoryMiB)
        let start = Date()
        let message = try Self.evaluate(registry, "fault.fork")
        #expect(message.contains("crashed the plugin host process (signal 11"), "\(message)")
        #expect(Date().timeIntervalSince(start) < 5, "reported after \(Date().timeIntervalSince(start)) s")
        let children = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { pid_t($0) }
        #expect(children.count == 6)
        usleep(200_000)
        #expect(children.filter(Self.running).isEmpty, "still running: \(children.filter(Self.running))")
    }

    @Test func theCapComesFromTheOptionOrTheEnvironmentWithinItsRange() throws {
        #expect(try PluginHostConfiguration.memoryMiB(option: nil, environment: [:]) == 4096)
        #expect(try PluginHostConfiguration.memoryMiB(option: nil, environment: ["LOOKSTUDIO_PLUGIN_MEMORY": "8192"])
            == 8192)
        #expect(try PluginHostConfiguration.memoryMiB(option: 1024, environment: ["LOOKSTUDIO_PLUGIN_MEMORY": "x"])
            == 1024)
        #expect(throws: PluginHostError.invalidMemory("100", from: "LOOKSTUDIO_PLUGIN_MEMORY")) {
            try PluginHostConfiguration.memoryMiB(option: nil, environment: ["LOOKSTUDIO_PLUGIN_MEMORY": "100"])
        }
        #expect(PluginHostError.invalidMemory("100", from: "LOOKSTUDIO_PLUGIN_MEMORY").description
            == "$LOOKSTUDIO_PLUGIN_MEMORY: the plugin host's memory cap must be a whole number of MiB from 256 to "
            + "1048576, such as 8192 (got \"100\")")
    }
}
