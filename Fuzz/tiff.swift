// libFuzzer harness "tiff": TIFF decoding by strips and tiles (TIFFReader over libtiff, 8/16-bit, ICC tag).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import Foundation
import ImageIO

// libtiff reads from a file, so each input is written to one scratch file per process, in shared memory when the
// system has it: on a disk-backed temporary folder, creating and writing the file took most of each execution.
private let scratch: String = {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
    let path = folder + "lookstudio-fuzz-\(ProcessInfo.processInfo.processIdentifier).tif"
    atexit { unlink(scratch) }
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes: data, count: size)) else { return 0 }
    // A small pixel limit keeps huge declared sizes from turning into out-of-memory reports.
    _ = try? TIFFImage.read(path: scratch, maxPixels: 1 << 22)
    return 0
}
