import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FileHandle {
    /// Everything left to read (a child's pipe to its end), retrying reads a signal interrupted.
    ///
    /// Foundation's `readDataToEndOfFile()` traps on EINTR on Linux (its read loop throws and the wrapper uses
    /// `try!`); a process that starts and reaps many children (the test suite, the evaluations) meets that under load.
    public func readAllRetryingInterrupts() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }

    /// Everything left on two pipes of one child (its standard output and error), read at once: the second on
    /// another thread, so a child that fills one pipe while the other is being drained never blocks for good.
    public static func readAll(_ first: FileHandle, _ second: FileHandle) -> (Data, Data) {
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box(), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.data = second.readAllRetryingInterrupts()
            done.signal()
        }
        let firstData = first.readAllRetryingInterrupts()
        done.wait()
        return (firstData, box.data)
    }
}
