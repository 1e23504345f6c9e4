import Foundation
import LookCore

/// Where plugins run: in a `lookstudio plugin-host` child process (the default for the CLI), or in this process.
public enum PluginIsolation: Sendable, Equatable {
    /// `dlopen` in this process: fastest, and a debugger sees the plugin, but a crash or `exit` in a plugin ends the
    /// process. For plugin authors (`--in-process`, `LOOKSTUDIO_PLUGINS_IN_PROCESS=1`) and in-process tests.
    case inProcess
    /// Plugins loaded and evaluated in child processes started from `configuration.executable`.
    case outOfProcess(PluginHostConfiguration)

    /// Environment variable that, set to `1`, selects ``inProcess``.
    public static let inProcessVariable = "LOOKSTUDIO_PLUGINS_IN_PROCESS"

    /// The CLI's choice: in process when `inProcess` or the environment asks for it, else a plugin host started from
    /// ``PluginHostConfiguration/standard(environment:timeout:)``.
    public static func standard(
        inProcess: Bool = false, timeout: Double? = nil, memoryMiB: Int? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PluginHostError) -> PluginIsolation {
        if inProcess || environment[inProcessVariable] == "1" { return .inProcess }
        return .outOfProcess(try PluginHostConfiguration.standard(environment: environment, timeout: timeout,
                                                                  memoryMiB: memoryMiB))
    }
}

/// How to start the plugin host and how long to wait for it.
public struct PluginHostConfiguration: Sendable, Equatable {
    /// Environment variable naming the executable to start as the plugin host (a `lookstudio` binary).
    public static let executableVariable = "LOOKSTUDIO_PLUGIN_HOST"
    /// Environment variable giving the time limit in seconds for loading one plugin file or for one evaluation.
    public static let timeoutVariable = "LOOKSTUDIO_PLUGIN_TIMEOUT"
    /// Time limit when neither an option nor the environment gives one, in seconds.
    public static let defaultTimeout = 10.0
    /// Longest time limit accepted, in seconds (a day): the limit becomes a deadline in milliseconds, which a
    /// larger number would overflow, and a plugin that needs longer is better debugged with `--in-process`.
    public static let maximumTimeout = 86_400.0
    /// The hidden subcommand the child runs.
    public static let subcommand = "plugin-host"
    /// Environment variable giving the plugin host's address-space cap in MiB.
    public static let memoryVariable = "LOOKSTUDIO_PLUGIN_MEMORY"
    /// The address-space cap when neither an option nor the environment gives one: 4 GiB. An idle host maps about
    /// 190 MiB and a 256³ lattice in and out takes 400 MiB, so real plugins fit with room; the probe's runaway
    /// plugin had reached 5.4 GB within its 10 s.
    public static let defaultMemoryMiB = 4096
    /// The accepted caps, in MiB: below 256 the host itself may not start.
    public static let memoryRange = 256...(1 << 20)
    /// The exit status of a plugin host that crashed because an allocation hit its address-space cap.
    static let outOfMemoryStatus: Int32 = 86
    /// The variable through which the parent hands the cap, in bytes, to the child it starts.
    static let childMemoryVariable = "LOOKSTUDIO_PLUGIN_HOST_ADDRESS_SPACE"

    /// A `lookstudio` executable; the child runs `EXECUTABLE plugin-host`.
    public var executable: String
    /// Seconds allowed for loading one plugin file, and for one evaluation.
    public var timeout: Double
    /// Most children alive at once; concurrent evaluations beyond it wait for a free one.
    public var maximumProcesses: Int
    /// Each child's address-space cap (`RLIMIT_AS`) in MiB: a plugin's allocations past it fail.
    public var memoryMiB: Int

    /// Creates a configuration.
    public init(executable: String, timeout: Double = defaultTimeout,
                maximumProcesses: Int = ProcessInfo.processInfo.activeProcessorCount,
                memoryMiB: Int = defaultMemoryMiB) {
        self.executable = executable
        self.timeout = timeout
        self.maximumProcesses = max(1, maximumProcesses)
        self.memoryMiB = memoryMiB
    }

    /// The executable from `$LOOKSTUDIO_PLUGIN_HOST`, else this process's own (`/proc/self/exe`: the CLI re-executes
    /// itself); the timeout from ``timeout(option:environment:)``.
    ///
    /// A library user whose process is not `lookstudio` (a test runner, say) sets `$LOOKSTUDIO_PLUGIN_HOST` or builds
    /// the configuration with ``init(executable:timeout:maximumProcesses:)``.
    public static func standard(environment: [String: String], timeout: Double? = nil, memoryMiB: Int? = nil)
        throws(PluginHostError) -> PluginHostConfiguration
    {
        let seconds = try Self.timeout(option: timeout, environment: environment)
        let memory = try Self.memoryMiB(option: memoryMiB, environment: environment)
        if let named = environment[executableVariable], !named.isEmpty {
            return PluginHostConfiguration(executable: named, timeout: seconds, memoryMiB: memory)
        }
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        return PluginHostConfiguration(executable: own, timeout: seconds, memoryMiB: memory)
    }

    /// The address-space cap in MiB: `option`, else `$LOOKSTUDIO_PLUGIN_MEMORY` (unset or empty means not given),
    /// else ``defaultMemoryMiB``; either must be a whole number in ``memoryRange``.
    public static func memoryMiB(option: Int?, environment: [String: String]) throws(PluginHostError) -> Int {
        if let option {
            guard memoryRange.contains(option) else { throw .invalidMemory(String(option), from: nil) }
            return option
        }
        guard let text = environment[memoryVariable], !text.isEmpty else { return defaultMemoryMiB }
        guard let mib = Int(text), memoryRange.contains(mib) else { throw .invalidMemory(text, from: memoryVariable) }
        return mib
    }

    /// The time limit in seconds: `option` (the caller's own setting), else `$LOOKSTUDIO_PLUGIN_TIMEOUT` (unset or
    /// empty means not given), else 10. Either must be a number of seconds above 0 and at most ``maximumTimeout``; the
    /// variable is checked only when no option replaces it.
    public static func timeout(option: Double?, environment: [String: String]) throws(PluginHostError) -> Double {
        if let option {
            guard accepts(option) else { throw .invalidTimeout(TextNumber.format(option), from: nil) }
            return option
        }
        guard let text = environment[timeoutVariable], !text.isEmpty else { return defaultTimeout }
        guard let seconds = Double(text), accepts(seconds) else { throw .invalidTimeout(text, from: timeoutVariable) }
        return seconds
    }

    private static func accepts(_ seconds: Double) -> Bool { seconds > 0 && seconds <= maximumTimeout }
}
