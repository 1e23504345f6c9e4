import Foundation
import ImageIO

/// Reports per-image progress from worker threads: a redrawn bar with ETA on a terminal, plain lines otherwise.
///
/// Shared mutable state (counts, the terminal line) guarded by `lock`; workers call it concurrently.
public final class TerminalProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let start = Date()
    private let isTerminal = isatty(2) != 0
    private var done = 0
    private var failed = 0

    /// A reporter for `total` items.
    public init(total: Int) { self.total = total }

    /// Records one finished image; `line` is shown above the bar (or printed as is without a terminal).
    public func finished(_ line: String, failure: Bool) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        if failure { failed += 1 }
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line + "\n" + bar()).utf8))
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// Clears the bar and returns (done, failed).
    public func close() -> (done: Int, failed: Int) {
        lock.lock()
        defer { lock.unlock() }
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return (done, failed)
    }

    private func bar() -> String {
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let elapsed = Date().timeIntervalSince(start)
        let eta = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "] \(done)/\(total)  elapsed \(Self.time(elapsed))  ETA \(Self.time(eta))"
    }

    private static func time(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}

/// One long job's status on a terminal (stderr): a line redrawn in place with the elapsed time, cleared when the job
/// ends, so warnings and results print on a clean line.
public final class TerminalStatus: @unchecked Sendable {
    private let lock = NSLock()
    private let start = Date()
    private var drawn = false

    /// A status line when stderr is a terminal; nil otherwise (a log gets no redrawn lines).
    public static func onTerminal() -> TerminalStatus? { isatty(2) != 0 ? TerminalStatus() : nil }

    /// Shows `text` in place of the line before.
    public func update(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        let seconds = Int(Date().timeIntervalSince(start).rounded())
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text + "  (\(seconds) s)").utf8))
        drawn = true
        Interruption.statusLine(drawn: true)
    }

    /// Clears the line, if one was drawn.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        drawn = false
        Interruption.statusLine(drawn: false)
    }
}
