import CTempRegistry
import Foundation

/// The temporary output files in flight (every `AtomicFile` temporary), removed by the interrupt handler.
///
/// The registry lives in static C memory (`CTempRegistry`) so the SIGINT/SIGTERM handler can walk it without a
/// lock or an allocation; registering and forgetting are thread-safe.
public enum TemporaryFiles {
    /// Registers `path`; pass the result to `forget` once the file is renamed into place or removed. A path too
    /// long for the table's slots (4 KB) or a full table (256 files) gives -1: the write still works, unprotected.
    public static func register(_ path: String) -> Int32 { Int32(lstemp_register(path)) }

    /// Forgets a registration (the file was committed or removed).
    public static func forget(_ slot: Int32) { lstemp_unregister(slot) }

    /// Files registered right now.
    public static var count: Int { Int(lstemp_count()) }

    /// Whether `path` is registered.
    public static func contains(_ path: String) -> Bool { lstemp_contains(path) != 0 }

    /// Removes every registered file now (what the handler does) and returns how many were removed.
    @discardableResult
    public static func removeAll() -> Int { Int(lstemp_remove_all()) }
}

/// SIGINT and SIGTERM: the handler removes every temporary output file, then either ends the process by the signal
/// (single-image commands) or records it so a batch stops starting new work (`isRequested`) and reports.
public enum Interruption {
    /// What happens after the temporary files are removed.
    public enum Mode: Sendable {
        /// The process ends by the signal (a shell reports 130 for SIGINT, 143 for SIGTERM).
        case exit
        /// The signal is recorded and the process goes on; a second signal ends it as `.exit`.
        case stop
    }

    /// Installs the handler (idempotent; a later call changes the mode).
    public static func install(_ mode: Mode = .exit) throws(ImageIOError) {
        let code = lstemp_install(mode == .stop ? Int32(LSTEMP_STOP.rawValue) : Int32(LSTEMP_EXIT.rawValue))
        guard code == 0 else {
            throw .invalidOptions("cannot install the interrupt handler: \(String(cString: strerror(code)))")
        }
    }

    /// The signal that asked the process to stop (SIGINT or SIGTERM), or nil.
    public static var signal: Int32? {
        let s = lstemp_interrupted()
        return s == 0 ? nil : s
    }

    /// Whether an interrupt asked the process to stop starting new work.
    public static var isRequested: Bool { signal != nil }

    /// The line an interrupt that ends the process writes on stderr: what it interrupted and what it left (nil:
    /// none).
    public static func exitMessage(_ text: String?) {
        if let text { lstemp_set_exit_message(text + "\n") } else { lstemp_set_exit_message(nil) }
    }

    /// Whether a status line is drawn on stderr, so an interrupt that ends the process clears it first.
    public static func statusLine(drawn: Bool) { lstemp_set_status_line(drawn ? 1 : 0) }

    /// The exit status a shell would report for the interrupting signal (130, 143), or nil.
    public static var exitStatus: Int32? { signal.map { 128 + $0 } }

    /// Runs `body` as one piece an interrupt must not cut in two, such as a catalog transaction and its commit, so
    /// that an interrupted command never leaves the user unsure whether its work was done.
    ///
    /// The first SIGINT or SIGTERM arriving while `body` runs is held: nothing is removed and the process goes on.
    /// A second one is handled at once, so a section that hangs can still be left. When `body` returns, a held
    /// signal is handled in `.stop` mode as it would have been; in `.exit` mode it is handed back instead of ending
    /// the process, since the work is done and the caller should finish and report it. When `body` throws, a held
    /// signal is handled (in `.exit` mode the process ends by it): nothing was done, which the interrupt means.
    /// Call it on the thread that installed the handler, so a signal handled at the end reaches a thread that takes
    /// it.
    public static func deferring<T>(_ body: () throws -> T) rethrows -> (value: T, heldSignal: Int32?) {
        lstemp_hold_begin()
        let value: T
        do {
            value = try body()
        } catch {
            lstemp_hold_end(1)
            throw error
        }
        let signal = lstemp_hold_end(0)
        return (value, signal == 0 ? nil : signal)
    }
}
