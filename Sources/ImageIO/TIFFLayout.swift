import CTIFF
import Pixels

/// What a TIFF's first directory says about its picture, checked before anything is allocated for it: RGB or RGBA
/// interleaved, 8 or 16 bits, within the pixel limit, a strip or band of tiles within the decode budget, and tiles
/// no larger than the image they tile.
struct TIFFLayout {
    let width: Int, height: Int, channels: Int, bits: Int
    /// The TIFF compression code.
    let compression: UInt16
    let tiled: Bool
    let tileWidth: Int, tileHeight: Int

    init(_ tif: OpaquePointer, path: String, maxPixels: Int) throws(ImageIOError) {
        var w: UInt32 = 0, h: UInt32 = 0, bps: UInt16 = 0, spp: UInt16 = 0, photometric: UInt16 = 0
        var planar: UInt16 = 1, format: UInt16 = 1, comp: UInt16 = 1
        _ = lstiff_get_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), &w)
        _ = lstiff_get_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), &h)
        _ = lstiff_get_u16_defaulted(tif, UInt32(TIFFTAG_BITSPERSAMPLE), &bps)
        _ = lstiff_get_u16_defaulted(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), &spp)
        _ = lstiff_get_u16_defaulted(tif, UInt32(TIFFTAG_PLANARCONFIG), &planar)
        _ = lstiff_get_u16_defaulted(tif, UInt32(TIFFTAG_SAMPLEFORMAT), &format)
        _ = lstiff_get_u16_defaulted(tif, UInt32(TIFFTAG_COMPRESSION), &comp)
        let hasPhotometric = lstiff_get_u16(tif, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) != 0
        func refuse(_ detail: String) -> ImageIOError { .unsupportedImage(file: path, detail: detail) }
        guard w > 0, h > 0 else { throw refuse("the TIFF has no image size") }
        guard hasPhotometric, photometric == UInt16(PHOTOMETRIC_RGB) else {
            throw refuse("only RGB TIFFs are supported (this one has photometric interpretation \(photometric); "
                         + "convert grey, palette, CMYK or YCbCr images to RGB first)")
        }
        guard bps == 8 || bps == 16, format == UInt16(SAMPLEFORMAT_UINT) else {
            throw refuse("only 8- and 16-bit unsigned integer samples are supported (this TIFF has \(bps)-bit "
                         + (format == UInt16(SAMPLEFORMAT_IEEEFP) ? "floating-point" : "format \(format)") + " samples)")
        }
        guard spp == 3 || spp == 4 else { throw refuse("\(spp) samples per pixel: only RGB and RGBA are supported") }
        guard planar == UInt16(PLANARCONFIG_CONTIG) else {
            throw refuse("planar (separate) sample layout is not supported; only interleaved RGB(A)")
        }
        guard Int(w) * Int(h) <= maxPixels else {
            throw .tooManyPixels(file: path, width: Int(w), height: Int(h), limit: maxPixels)
        }
        // libtiff reads a whole strip (or this reader a band of tiles) at a time: both are bounded before reading.
        var rowsPerStrip: UInt32 = h, tileRows: UInt32 = 1
        if TIFFIsTiled(tif) != 0 {
            _ = lstiff_get_u32(tif, UInt32(TIFFTAG_TILELENGTH), &tileRows)
            rowsPerStrip = 1
        } else {
            _ = lstiff_get_u32(tif, UInt32(TIFFTAG_ROWSPERSTRIP), &rowsPerStrip)
        }
        let bandRows = Int(min(max(rowsPerStrip, tileRows, 1), h))
        try DecodeBudget.checkRow(file: path, bytes: Int(w) * Int(spp) * Int(bps / 8))
        try DecodeBudget.checkRow(file: path, bytes: Int(w) * Int(spp) * Int(bps / 8) * bandRows,
                                  what: "one strip or band of tiles (\(bandRows) rows)")
        tiled = TIFFIsTiled(tif) != 0
        var tw: UInt32 = 0, th: UInt32 = 0
        if tiled {
            _ = lstiff_get_u32(tif, UInt32(TIFFTAG_TILEWIDTH), &tw)
            _ = lstiff_get_u32(tif, UInt32(TIFFTAG_TILELENGTH), &th)
        }
        // A tile may pad its image up to the next multiple of 16 (TIFF 6.0's rule) or be a common 256-pixel tile
        // over a smaller image; anything wider or taller comes from a damaged file and would make the reader
        // allocate for pixels that do not exist (a 1.4 kB file asked for 12.8 GB before this check).
        func tileLimit(_ side: Int) -> Int { max((side + 15) / 16 * 16, 256) }
        if tiled, Int(tw) > tileLimit(Int(w)) || Int(th) > tileLimit(Int(h)) {
            throw .corruptImage(file: path, format: "TIFF",
                                detail: "its \(tw)×\(th) tiles are larger than the \(w)×\(h) image they tile; "
                                    + "the file is damaged")
        }
        width = Int(w)
        height = Int(h)
        channels = Int(spp)
        bits = Int(bps)
        compression = comp
        tileWidth = Int(tw)
        tileHeight = Int(th)
    }
}
