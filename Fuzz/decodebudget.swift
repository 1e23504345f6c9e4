// libFuzzer harness "decodebudget": image headers of every format through the decode budget in bytes.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
//
// The pixel limit is off here (Int.max), so only DecodeBudget stands between a header and an allocation: the
// header-only `info`, then what the pipeline does with the file — one band of rows for a format that streams (PNG,
// TIFF, JPEG; the band sized as the pipeline sizes it, at most the row budget), the whole image for one that does not
// (WebP, HEIF, AVIF). scripts/fuzz.sh runs this target with -malloc_limit_mb=1024, so any single allocation past the
// budgets (64 MiB a row, 512 MiB an image decoded whole, with room for a decoder's own planes) is a finding.
import Foundation
import ImageIO

// Readers take paths (libtiff, libheif's file reader), so each input goes to one scratch file per process, in shared
// memory when the system has it.
private let scratch: String = {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
    let path = folder + "lookstudio-fuzz-budget-\(ProcessInfo.processInfo.processIdentifier).img"
    atexit { unlink(scratch) }
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes: data, count: size)),
          let info = try? ImageFormat.info(path: scratch, maxPixels: Int.max) else { return 0 }
    precondition(info.width > 0 && info.height > 0, "info accepted a \(info.width)×\(info.height) header")
    if let reader = try? ImageFormat.bandReader(path: scratch, maxPixels: Int.max) {
        let rowSamples = reader.width * reader.channels
        let rowBytes = rowSamples * (reader.depth == .sixteen ? 2 : 1)
        precondition(rowBytes <= DecodeBudget.maxRowBytes, "a \(rowBytes)-byte row passed the row budget")
        // At most 4 MiB of rows, as the pipeline's bands; one band is enough to exercise the decoder's allocations.
        let rows = max(1, min(reader.height, (4 << 20) / max(1, rowBytes)))
        if reader.depth == .sixteen {
            var band = [UInt16](repeating: 0, count: rows * rowSamples)
            band.withUnsafeMutableBufferPointer { _ = try? reader.readRows(rows, into: $0) }
        } else {
            var band = [UInt8](repeating: 0, count: rows * rowSamples)
            band.withUnsafeMutableBufferPointer { _ = try? reader.readRows(rows, into: $0) }
        }
    } else if info.format == .webp || info.format == .heif || info.format == .avif {
        _ = try? ImageFormat.readImage(path: scratch, maxPixels: Int.max)
    }
    return 0
}
