#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// How a child ended, collected once by whichever asks first: a wait between frames (`hasEnded`) or `reap`.
final class ChildWatch: @unchecked Sendable {
    let pid: pid_t
    // Used by one thread at a time, like the process it watches.
    private(set) var status: Int32?
    private(set) var peakResidentBytes = 0

    init(pid: pid_t) { self.pid = pid }

    /// True once the child has ended (collecting it); never blocks.
    func hasEnded() -> Bool {
        if status != nil { return true }
        return collect(options: WNOHANG)
    }

    /// Waits for the child to end and returns its wait status.
    func wait() -> Int32 {
        if let status { return status }
        while !collect(options: 0) {}
        return status ?? 0
    }

    private func collect(options: Int32) -> Bool {
        var raw: Int32 = 0
        var usage = rusage()
        let got = wait4(pid, &raw, options, &usage)
        if got == pid {
            status = raw
            peakResidentBytes = Int(usage.ru_maxrss) * 1024
            return true
        }
        // ECHILD: collected elsewhere; treat as ended so no wait hangs.
        if got < 0 && errno == ECHILD { status = 0; return true }
        return false
    }
}

/// One running `lookstudio plugin-host` child and the two pipes to it. Used by one thread at a time.
///
/// The child leads its own process group, so that what a plugin forks can be ended with it: a plugin that forks
/// and crashes left its children holding the pipes (the parent then saw no end of file and reported a timeout) and
/// running after `lookstudio` had exited.
final class PluginHostProcess {
    let pid: pid_t
    let channel: FrameChannel
    let watch: ChildWatch
    let memoryMiB: Int
    private var reaped = false

    private init(pid: pid_t, channel: FrameChannel, watch: ChildWatch, memoryMiB: Int) {
        self.pid = pid
        self.channel = channel
        self.watch = watch
        self.memoryMiB = memoryMiB
    }

    /// Starts `executable plugin-host` with its stdin and stdout on fresh pipes, in a process group of its own and
    /// with its address space capped at `memoryMiB`; stderr is shared with this process so a plugin's own messages
    /// reach the user.
    static func start(executable: String, memoryMiB: Int = PluginHostConfiguration.defaultMemoryMiB)
        throws(PluginHostStartFailure) -> PluginHostProcess {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else {
            throw PluginHostStartFailure(detail: "pipe: \(String(cString: strerror(errno)))")
        }
        guard pipe(&fromChild) == 0 else {
            toChild.forEach { close($0) }
            throw PluginHostStartFailure(detail: "pipe: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec everywhere, so that a second child never inherits the first one's pipe ends (it would keep
        // the first child from ever seeing end-of-file); posix_spawn's dup2 onto 0 and 1 clears the flag there.
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // A 1 MB pipe (the unprivileged maximum) moves a 64³ lattice in 3 writes instead of 48; failure is harmless.
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, not exported by Glibc's module map
        _ = fcntl(toChild[1], setPipeSize, Int32(1 << 20))
        _ = fcntl(fromChild[0], setPipeSize, Int32(1 << 20))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(PluginHostConfiguration.subcommand), nil]
        defer { argv.forEach { free($0) } }
        // Swift's crash backtracer would spend seconds symbolicating a plugin's crash and print pages of it; the
        // parent reports the signal in one line instead.
        var variables = ProcessInfo.processInfo.environment
        variables["SWIFT_BACKTRACE"] = "enable=no"
        variables[PluginHostConfiguration.childMemoryVariable] = String(memoryMiB << 20)
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw PluginHostStartFailure(detail: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        let watch = ChildWatch(pid: pid)
        return PluginHostProcess(pid: pid, channel: FrameChannel(input: fromChild[0], output: toChild[1], peer: watch),
                                 watch: watch, memoryMiB: memoryMiB)
    }

    /// Stops the child and everything in its process group at once (it hung, or broke the protocol) and collects
    /// it.
    func kill() {
        guard !reaped else { return }
        _ = Glibc.kill(-pid, SIGKILL)
        _ = reap()
    }

    /// Waits for the child, which has ended or closed its end, ends what is left of its process group, and says how
    /// it ended (a crash the address-space cap caused ends with `outOfMemoryStatus`: see `PluginHostServer`).
    func reap() -> String {
        guard !reaped else { return "the plugin host had already ended" }
        reaped = true
        let status = watch.wait()
        _ = Glibc.kill(-pid, SIGKILL)
        let signal = status & 0x7f
        if signal == 0 {
            let code = (status >> 8) & 0xff
            if code == PluginHostConfiguration.outOfMemoryStatus {
                return "ran out of memory: an allocation failed at the plugin host's address-space cap of "
                    + "\(memoryMiB) MiB (peak \(watch.peakResidentBytes >> 20) MiB resident) and the host was "
                    + "ended; raise the cap with $\(PluginHostConfiguration.memoryVariable) (MiB) if the plugin "
                    + "really needs more"
            }
            return "ended the plugin host process with exit status \(code) (a plugin must return, never call exit)"
        }
        let name = strsignal(signal).map { String(cString: $0) } ?? "unknown signal"
        return "crashed the plugin host process (signal \(signal), \(name))"
    }

    deinit {
        close(channel.output)
        close(channel.input)
        // An idle child exits when its stdin closes; killing it first keeps deinit from waiting on anything.
        kill()
    }
}

/// The plugin host could not be started.
struct PluginHostStartFailure: Error {
    let detail: String
}

/// The plugin-host children of one registry: started on demand, reused, replaced when one dies.
///
/// Holds the load-time facts every child must reproduce (search path, files left out) and at most
/// `maximumProcesses` children; callers on several threads each get a child of their own.
final class PluginHostPool: @unchecked Sendable {
    let configuration: PluginHostConfiguration
    let searchPaths: [String]
    // Written only while the registry loads (one thread), read-only afterwards.
    private var excluded: [String] = []
    private var expectedIDs: [String] = []
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var idle: [PluginHostProcess] = []
    private var running = 0

    init(configuration: PluginHostConfiguration, searchPaths: [String]) {
        self.configuration = configuration
        self.searchPaths = searchPaths
        // A child that dies while we write to it must give EPIPE, not kill this process.
        signal(SIGPIPE, SIG_IGN)
    }

    private var timeout: Duration { .milliseconds(Int64(configuration.timeout * 1000)) }

    private var timeoutText: String {
        let seconds = configuration.timeout == configuration.timeout.rounded()
            ? String(Int(configuration.timeout)) : String(configuration.timeout)
        return "\(seconds) s (raise it with --plugin-timeout or $\(PluginHostConfiguration.timeoutVariable))"
    }

    /// The outcome of asking one child to load the plugins.
    private enum LoadOutcome {
        case loaded(RegistryMessage)
        /// The child died or hung; `pending` is the file it was loading, if any.
        case failed(pending: String?, problem: String)
    }

    /// Loads the registry in a child, restarting without any file that crashes or hangs the child while loading; the
    /// surviving child stays in the pool for evaluations.
    func loadRegistry() -> (RegistryMessage?, [PluginRefusal]) {
        var refusals: [PluginRefusal] = []
        while true {
            let process: PluginHostProcess
            do {
                process = try PluginHostProcess.start(executable: configuration.executable,
                                                      memoryMiB: configuration.memoryMiB)
            } catch {
                refusals.append(PluginRefusal(path: configuration.executable, reason: .hostUnavailable(error.detail)))
                return (nil, refusals)
            }
            switch load(process) {
            case .loaded(let message):
                expectedIDs = message.adjustments.map(\.id)
                condition.lock()
                idle.append(process)
                running += 1
                condition.unlock()
                return (message, refusals)
            case .failed(let pending?, let problem) where !excluded.contains(pending):
                excluded.append(pending)
                refusals.append(PluginRefusal(path: pending, reason: .crashedOnLoad(problem)))
            case .failed(_, let problem):
                refusals.append(PluginRefusal(path: configuration.executable, reason: .hostUnavailable(problem)))
                return (nil, refusals)
            }
        }
    }

    /// Sends the load request and follows the child's progress, each file within the time limit.
    private func load(_ process: PluginHostProcess) -> LoadOutcome {
        var pending: String?
        do {
            let request = try JSONEncoder().encode(LoadRequest(searchPaths: searchPaths, excluded: excluded))
            try process.channel.send(.load, bytes: Array(request), deadline: .now + timeout)
            while true {
                let (kind, length) = try process.channel.receiveHeader(deadline: .now + timeout)
                let payload = try process.channel.receiveBytes(length, deadline: .now + timeout)
                switch kind {
                case .loading:
                    pending = String(decoding: payload, as: UTF8.self)
                case .registry:
                    return .loaded(try JSONDecoder().decode(RegistryMessage.self, from: Data(payload)))
                case .failure:
                    process.kill()
                    return .failed(pending: nil, problem: String(decoding: payload, as: UTF8.self))
                case .load, .evaluate, .result:
                    process.kill()
                    return .failed(pending: nil, problem: "the plugin host answered with an unexpected \(kind) frame")
                }
            }
        } catch FrameFailure.closed {
            return .failed(pending: pending, problem: process.reap())
        } catch FrameFailure.timedOut {
            process.kill()
            return .failed(pending: pending, problem: "hung the plugin host for \(timeoutText)")
        } catch {
            process.kill()
            return .failed(pending: pending, problem: "the plugin host broke the protocol: \(error)")
        }
    }

    /// Evaluates adjustment `index` of the child registry over `input` into `output` (same count; may alias);
    /// returns what went wrong, or nil.
    func evaluate(
        index: Int, parameters: [ParameterValue], input: UnsafeBufferPointer<Float>,
        output: UnsafeMutableBufferPointer<Float>
    ) -> String? {
        guard let header = EvaluateFrame.header(index: index, values: parameters) else {
            return "its parameter values exceed the plugin host's frame (\(parameters.count) values)"
        }
        let floats = parameters.flatMap(\.floats)
        let process: PluginHostProcess
        switch checkOut() {
        case .success(let taken): process = taken
        case .failure(let problem): return problem.detail
        }
        let deadline = ContinuousClock.now + timeout
        do {
            try header.withUnsafeBytes { (head) in
                try floats.withUnsafeBytes { (values) in
                    try process.channel.send(.evaluate, [head, values, UnsafeRawBufferPointer(input)],
                                             deadline: deadline)
                }
            }
            let (kind, length) = try process.channel.receiveHeader(deadline: deadline)
            switch kind {
            case .result where length == input.count * MemoryLayout<Float>.size:
                try process.channel.read(into: UnsafeMutableRawBufferPointer(output), deadline: deadline)
                checkIn(process)
                return nil
            case .failure:
                let text = String(decoding: try process.channel.receiveBytes(length, deadline: deadline), as: UTF8.self)
                checkIn(process)
                return "the plugin host could not evaluate it: \(text)"
            default:
                discard(process, killing: true)
                return "the plugin host answered with a \(kind) frame of \(length) bytes"
            }
        } catch FrameFailure.closed {
            let problem = process.reap()
            discard(process, killing: false)
            return problem
        } catch FrameFailure.timedOut {
            discard(process, killing: true)
            return "did not return within \(timeoutText); the plugin host was stopped"
        } catch {
            discard(process, killing: true)
            return "the plugin host broke the protocol: \(error)"
        }
    }

    /// An idle child, or a new one when fewer than `maximumProcesses` run; waits for one otherwise.
    private func checkOut() -> Result<PluginHostProcess, PluginHostStartFailure> {
        condition.lock()
        while idle.isEmpty && running >= configuration.maximumProcesses { condition.wait() }
        if let process = idle.popLast() {
            condition.unlock()
            return .success(process)
        }
        running += 1
        condition.unlock()
        do {
            let process = try PluginHostProcess.start(executable: configuration.executable,
                                                      memoryMiB: configuration.memoryMiB)
            switch load(process) {
            case .loaded(let message) where message.adjustments.map(\.id) == expectedIDs:
                return .success(process)
            case .loaded:
                discard(process, killing: true)
                return .failure(PluginHostStartFailure(
                    detail: "a new plugin host loaded other adjustments than the first; were plugin files changed?"))
            case .failed(let pending, let problem):
                discard(process, killing: false)
                let file = pending.map { " (while loading \($0))" } ?? ""
                return .failure(PluginHostStartFailure(detail: "a new plugin host failed\(file): \(problem)"))
            }
        } catch {
            discard(nil, killing: false)
            return .failure(error)
        }
    }

    private func checkIn(_ process: PluginHostProcess) {
        condition.lock()
        idle.append(process)
        condition.signal()
        condition.unlock()
    }

    /// Forgets a child that died or was stopped, making room for a new one.
    private func discard(_ process: PluginHostProcess?, killing: Bool) {
        if killing { process?.kill() }
        condition.lock()
        running -= 1
        condition.signal()
        condition.unlock()
    }
}
