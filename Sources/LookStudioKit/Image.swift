import ImageIO
import Workflows

/// Pixels in memory the caller owns — interleaved RGB or RGBA, 8 or 16 bits per sample, rows `rowBytes` apart — and
/// the ICC profile they are encoded in. Nothing is copied: the memory must stay valid, and unchanged unless it is
/// an apply's output, while the image is used. Once made, an image may be used from any thread.
public struct Image: @unchecked Sendable {
    /// The rows, checked.
    let rows: PixelRows
    /// The colour description: the ICC profile, or untagged (read as sRGB).
    let color: ColorDescription

    /// Pixels per row.
    public var width: Int { rows.width }
    /// Rows.
    public var height: Int { rows.height }
    /// 3 (RGB) or 4 (RGBA).
    public var channels: Int { rows.channels }
    /// Bits per sample: 8 or 16.
    public var bits: Int { rows.depth.rawValue }
    /// Bytes from the start of one row to the next.
    public var rowBytes: Int { rows.rowBytes }

    /// Wraps `pixels` after checking the description: positive sizes, 3 or 4 channels, 8 or 16 bits (16-bit
    /// samples native-endian and 2-byte aligned), a stride of at least one row; an ICC profile the engine can use.
    public init(pixels: UnsafeMutableRawPointer?, width: Int, height: Int, channels: Int, bits: Int,
                rowBytes: Int, icc: [UInt8]? = nil) throws(LookStudioError) {
        rows = try classified {
            try PixelRows(base: pixels, width: width, height: height, channels: channels, bits: bits,
                          rowBytes: rowBytes)
        }
        color = ColorDescription(iccBytes: icc)
        if color.iccProfile != nil { try classified { try EngineSession.check(color) } }
    }
}
