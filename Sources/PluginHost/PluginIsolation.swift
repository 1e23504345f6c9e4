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
        inProcess: Bool = false, timeout: Double? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PluginHostError) -> PluginIsolation {
        if inProcess || environment[inProcessVariable] == "1" { return .inProcess }
        return .outOfProcess(try PluginHostConfiguration.standard(environment: environment, timeout: timeout))
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

    /// A `lookstudio` executable; the child runs `EXECUTABLE plugin-host`.
    public var executable: String
    /// Seconds allowed for loading one plugin file, and for one evaluation.
    public var timeout: Double
    /// Most children alive at once; concurrent evaluations beyond it wait for a free one.
    public var maximumProcesses: Int

    /// Creates a configuration.
    public init(executable: String, timeout: Double = defaultTimeout,
                maximumProcesses: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.executable = executable
        self.timeout = timeout
        self.maximumProcesses = max(1, maximumProcesses)
    }

    /// The executable from `$LOOKSTUDIO_PLUGIN_HOST`, else this process's own (`/proc/self/exe`: the CLI re-executes
    /// itself); the timeout from ``timeout(option:environment:)``.
    ///
    /// A library user whose process is not `lookstudio` (a test runner, say) sets `$LOOKSTUDIO_PLUGIN_HOST` or builds
    /// the configuration with ``init(executable:timeout:maximumProcesses:)``.
    public static func standard(environment: [String: String], timeout: Double? = nil) throws(PluginHostError)
        -> PluginHostConfiguration
    {
        let seconds = try Self.timeout(option: timeout, environment: environment)
        if let named = environment[executableVariable], !named.isEmpty {
            return PluginHostConfiguration(executable: named, timeout: seconds)
        }
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        return PluginHostConfiguration(executable: own, timeout: seconds)
    }

    /// The time limit in seconds: `option` (`--plugin-timeout`), else `$LOOKSTUDIO_PLUGIN_TIMEOUT` (unset or empty
    /// means not given), else 10. Either must be a number of seconds above 0 and at most ``maximumTimeout``; the
    /// variable is checked only when no option replaces it.
    public static func timeout(option: Double?, environment: [String: String]) throws(PluginHostError) -> Double {
        if let option {
            guard accepts(option) else { throw .invalidTimeout(TextNumber.format(option), from: "--plugin-timeout") }
            return option
        }
        guard let text = environment[timeoutVariable], !text.isEmpty else { return defaultTimeout }
        guard let seconds = Double(text), accepts(seconds) else { throw .invalidTimeout(text, from: timeoutVariable) }
        return seconds
    }

    private static func accepts(_ seconds: Double) -> Bool { seconds > 0 && seconds <= maximumTimeout }
}
