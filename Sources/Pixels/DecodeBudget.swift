/// Memory a decode may take, in bytes as well as pixels, checked from the header before anything is allocated.
///
/// The pixel limit alone let a 90-byte PNG declaring 249,000,000 × 1 RGBA16 (under 250 megapixels) make libpng
/// allocate 2 GB rows, and a 34-byte WebP of 15,000 × 15,000 make libwebp allocate 900 MB: small files must not
/// buy large allocations. Streamed formats (PNG, TIFF, JPEG) hold a row or a strip at a time, so their rows are
/// bounded; formats decoded whole (WebP, HEIF, AVIF, interlaced PNG, a rotated JPEG) are bounded as a whole.
public enum DecodeBudget {
    /// Largest decoded row, or TIFF strip or band of tiles: 64 MiB (a 4-million-pixel-wide RGBA16 row; the widest
    /// real panoramas are under 2 MB a row).
    public static let maxRowBytes = 64 << 20
    /// Largest image decoded whole: 512 MiB (134 megapixels as 8-bit RGBA, 179 as RGB; camera HEICs are under 50).
    public static let maxWholeBytes = 512 << 20

    /// Throws when `bytes` of one row (strip, band) are over the budget.
    package static func checkRow(file: String, bytes: Int, what: String = "one row") throws(ImageIOError) {
        guard bytes > maxRowBytes else { return }
        throw .tooManyBytes(file: file, what: what, bytes: bytes, limit: maxRowBytes)
    }

    /// Decoded bytes an image decoded whole may take per byte of its file, above ``minWholeBytes``: real WebP and
    /// HEIF files store a pixel in well under 1,024 bits' worth of bytes (a 50-megapixel HEIC is megabytes), while a
    /// 30-byte lossless WebP declaring 11,265 × 10,241 (found by the `decodebudget` fuzz target) asked for 461 MB.
    public static let maxExpansion = 1024
    /// What any image decoded whole may take however small its file: 64 MiB.
    public static let minWholeBytes = 64 << 20

    /// Throws when an image decoded whole (`width` × `height` × `bytesPerPixel`) is over the budget: ``maxWholeBytes``,
    /// and, when the file's size `encodedBytes` is known, ``maxExpansion`` bytes per stored byte (at least
    /// ``minWholeBytes``), so a file under 1 kB cannot buy hundreds of megabytes.
    package static func checkWhole(file: String, width: Int, height: Int, bytesPerPixel: Int,
                           encodedBytes: Int? = nil) throws(ImageIOError) {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow2) = product.multipliedReportingOverflow(by: bytesPerPixel)
        var limit = maxWholeBytes
        var what = "the \(width)×\(height) image decoded whole"
        if let encodedBytes, encodedBytes < maxWholeBytes / maxExpansion {
            limit = max(minWholeBytes, encodedBytes * maxExpansion)
            what += " from a \(grouped(encodedBytes))-byte file"
        }
        guard overflow || overflow2 || bytes > limit else { return }
        throw .tooManyBytes(file: file, what: what, bytes: overflow || overflow2 ? Int.max : bytes, limit: limit)
    }

    /// `n` with thousands separators ("16,781,312"): limits are read by people deciding what to change.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
