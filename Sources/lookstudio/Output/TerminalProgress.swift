import Foundation
import ImageIO
import LookCore
import Rendering

/// Reports per-image progress from worker threads: a redrawn bar with ETA on a terminal, plain lines otherwise.
///
/// Shared mutable state (counts, the terminal line) guarded by `lock`; workers call it concurrently.
final class TerminalProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let start = Date()
    private let isTerminal = isatty(2) != 0
    private var done = 0
    private var failed = 0

    /// A reporter for `total` items.
    init(total: Int) { self.total = total }

    /// Records one finished image; `line` is shown above the bar (or printed as is without a terminal).
    func finished(_ line: String, failure: Bool) {
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
    func close() -> (done: Int, failed: Int) {
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
final class TerminalStatus: @unchecked Sendable {
    private let lock = NSLock()
    private let start = Date()
    private var drawn = false

    /// A status line when stderr is a terminal; nil otherwise (a log gets no redrawn lines).
    static func onTerminal() -> TerminalStatus? { isatty(2) != 0 ? TerminalStatus() : nil }

    /// Shows `text` in place of the line before.
    func update(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        let seconds = Int(Date().timeIntervalSince(start).rounded())
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text + "  (\(seconds) s)").utf8))
        drawn = true
        Interruption.statusLine(drawn: true)
    }

    /// Clears the line, if one was drawn.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        drawn = false
        Interruption.statusLine(drawn: false)
    }
}

/// Creates the progress bar when the first look finishes (the total is known only then).
final class LazyProgress: @unchecked Sendable {
    private let progress = Locked<TerminalProgress?>(nil)

    /// A bar not drawn yet.
    init() {}

    /// What the builder calls as each look finishes.
    var callback: @Sendable (Int, Int, String) -> Void {
        { [self] _, total, line in bar(total: total).finished(line, failure: false) }
    }

    /// Clears the bar, if one was drawn.
    func close() {
        _ = progress.current?.close()
    }

    private func bar(total: Int) -> TerminalProgress {
        progress.withLock { current in
            if let current { return current }
            let made = TerminalProgress(total: total)
            current = made
            return made
        }
    }
}

/// A progress bar on a terminal (stderr), nothing otherwise.
func galleryProgress() -> LazyProgress? { isatty(2) != 0 ? LazyProgress() : nil }

/// A gallery run in one line for people.
func gallerySummary(_ report: GalleryBuilder.Report) -> String {
    func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    return "\(report.index): \(count(report.looks, "look")) × \(count(report.photos, "photo")), "
        + "\(count(report.previewsRendered, "preview")) rendered, \(report.previewsReused) reused, "
        + String(format: "%.2f s", report.seconds)
}
