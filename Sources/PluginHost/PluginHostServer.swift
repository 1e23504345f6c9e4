#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The child side of plugin isolation: what `lookstudio plugin-host` runs.
///
/// It loads plugins in its own process, announcing each file before `dlopen` so that the parent can name a file that
/// crashes or hangs while loading, then evaluates adjustments over the lattice points the parent sends.
public enum PluginHostServer {
    /// Serves requests on stdin/stdout until stdin closes; returns the exit status for the process.
    ///
    /// Standard output is moved to a private descriptor first and fd 1 pointed at stderr, so a plugin that prints
    /// cannot corrupt the frames.
    public static func run() -> Int32 {
        let protocolOutput = dup(STDOUT_FILENO)
        guard protocolOutput >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
            FileHandle.standardError.write(Data("error: plugin-host: cannot set up its output\n".utf8))
            return 1
        }
        let spawned = confine()
        let channel = FrameChannel(input: STDIN_FILENO, output: protocolOutput)
        var registry: PluginRegistry?
        var buffer = EvaluationBuffer()
        while true {
            do {
                let (kind, length) = try channel.receiveHeader(deadline: nil)
                switch kind {
                case .load:
                    let request = try JSONDecoder().decode(
                        LoadRequest.self, from: Data(try channel.receiveBytes(length, deadline: nil)))
                    let loaded = PluginRegistry.loadInProcess(
                        searchPaths: request.searchPaths, excluding: Set(request.excluded)
                    ) { path in
                        try? channel.send(.loading, bytes: Array(path.utf8), deadline: nil)
                    }
                    registry = loaded
                    let message = RegistryMessage(loaded)
                    try channel.send(.registry, bytes: Array(try JSONEncoder().encode(message)), deadline: nil)
                case .evaluate:
                    try evaluate(length: length, registry: registry, buffer: &buffer, channel: channel)
                case .loading, .registry, .result, .failure:
                    try channel.send(.failure, bytes: Array("unexpected frame \(kind)".utf8), deadline: nil)
                    return 1
                }
            } catch FrameFailure.closed {
                // The parent is done: whatever a plugin forked goes with this process.
                if spawned { Glibc.kill(0, SIGKILL) }
                return 0
            } catch {
                FileHandle.standardError.write(Data("error: plugin-host: \(error)\n".utf8))
                return 1
            }
        }
    }

    /// When started by `PluginHostProcess` (leading its own process group, with the cap in the environment): caps
    /// the address space, and watches for the parent's death, which closes no pipe while a plugin is busy and, the
    /// group being its own, sends no terminal signal here; then the whole group is ended. Returns whether it was.
    private static func confine() -> Bool {
        guard let text = ProcessInfo.processInfo.environment[PluginHostConfiguration.childMemoryVariable],
              let bytes = rlim_t(text), getpgrp() == getpid() else { return false }
        var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        reportOutOfMemory()
        let parent = getppid()
        let watchdog = Thread {
            while getppid() == parent { usleep(200_000) }
            Glibc.kill(0, SIGKILL)
        }
        watchdog.start()
        return true
    }

    /// Makes a crash that the address-space cap caused end with `PluginHostConfiguration.outOfMemoryStatus`, so the
    /// parent can say so: a plugin whose allocation failed at the cap usually goes on to use the NULL it got
    /// (SIGSEGV), or the Swift runtime traps. The handler asks for 64 MiB of address space more; refused, the cap
    /// was reached. Otherwise the signal is raised again and the host dies of it as before. It runs on a stack of
    /// its own, so a plugin's stack overflow still reaches it.
    private static func reportOutOfMemory() {
        let stackSize = 64 << 10
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16)
        stack.ss_size = stackSize
        _ = sigaltstack(&stack, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let probe = mmap(nil, 64 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            if probe == MAP_FAILED { _exit(PluginHostConfiguration.outOfMemoryStatus) }
            munmap(probe, 64 << 20)
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        action.sa_flags = SA_ONSTACK
        sigemptyset(&action.sa_mask)
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT] { _ = sigaction(fault, &action, nil) }
    }

    /// Reads an `evaluate` payload into `buffer`, checks its parameter values against the adjustment's descriptors,
    /// runs the adjustment in place and sends the floats back.
    private static func evaluate(
        length: Int, registry: PluginRegistry?, buffer: inout EvaluationBuffer, channel: FrameChannel
    ) throws {
        let raw = buffer.reserve(length)
        try channel.read(into: raw, deadline: nil)
        let layout = try EvaluateFrame.layout(of: UnsafeRawBufferPointer(raw))
        guard let registry, layout.index < registry.adjustments.count,
              registry.adjustments[layout.index].parameters.count == layout.counts.count
        else {
            try channel.send(.failure, bytes: Array(
                "no adjustment #\(layout.index) with \(layout.counts.count) parameters".utf8), deadline: nil)
            return
        }
        let adjustment = registry.adjustments[layout.index]
        var parameters: [ParameterValue] = []
        var offset = layout.valuesOffset
        for (descriptor, count) in zip(adjustment.parameters, layout.counts) {
            let floats = UnsafeBufferPointer(start: (raw.baseAddress! + offset).bindMemory(to: Float.self,
                                                                                            capacity: count),
                                             count: count)
            offset += 4 * count
            switch descriptor.value(fromFloats: floats) {
            case .success(let value):
                parameters.append(value)
            case .failure(let problem):
                try channel.send(.failure, bytes: Array(
                    "\(adjustment.id) parameter \(descriptor.name): \(problem)".utf8), deadline: nil)
                return
            }
        }
        let floats = (length - layout.pointsOffset) / 4
        let points = (raw.baseAddress! + layout.pointsOffset).bindMemory(to: Float.self, capacity: floats)
        let rgb = UnsafeMutableBufferPointer(start: points, count: floats)
        adjustment.applyLocally(UnsafeBufferPointer(rgb), rgb, parameters: parameters)
        try channel.send(.result, [UnsafeRawBufferPointer(rgb)], deadline: nil)
    }
}

/// One growing, 16-byte aligned allocation reused by every request, so a run of evaluations allocates once.
private struct EvaluationBuffer {
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0

    mutating func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if count > capacity {
            storage?.deallocate()
            storage = UnsafeMutableRawPointer.allocate(byteCount: max(count, 16), alignment: 16)
            capacity = count
        }
        return UnsafeMutableRawBufferPointer(start: storage, count: count)
    }
}

extension RegistryMessage {
    /// The message describing `registry`.
    init(_ registry: PluginRegistry) {
        adjustments = registry.adjustments.map {
            AdjustmentInfo(id: $0.id, displayName: $0.displayName, category: $0.category, description: $0.description,
                           parameters: $0.parameters, pluginPath: $0.pluginPath, pluginName: $0.pluginName,
                           pluginVersion: $0.pluginVersion)
        }
        refusals = registry.refusals.map { Refusal(path: $0.path, adjustmentID: $0.adjustmentID, reason: $0.reason) }
        plugins = registry.plugins
    }
}
