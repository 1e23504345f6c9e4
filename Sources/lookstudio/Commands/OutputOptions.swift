import ArgumentParser
import ImageIO
import ImageMetadata
import LookCore

/// How image outputs are encoded and which metadata they carry: the options every image-writing command shares.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Lossy quality for JPEG, WebP, HEIF and AVIF outputs, 1…100 (default: a JPEG "
                               + "input's own, estimated from its quantisation tables; else "
                               + "\(EncoderOptions.defaultQuality)).", valueName: "1…100"))
    var quality: Int?

    @Option(help: ArgumentHelp("JPEG output chroma sampling: 444 (full), 422 (half the columns) or 420 (half the "
                               + "columns and rows). Default: a JPEG input's own; else 444 at quality 90 and above, "
                               + "420 below.", valueName: "444|422|420"))
    var subsampling: JPEGSubsampling?

    @Option(help: "TIFF output compression: none, lzw, deflate or packbits (default: a TIFF input's own, else lzw).")
    var tiffCompression: TIFFCompression?

    @Flag(help: "Write WebP outputs lossless (exact) instead of lossy.")
    var webpLossless = false

    @Flag(help: "Drop GPS position tags from the metadata carried to the output.")
    var stripGPS = false

    @Flag(help: "Carry no metadata (EXIF, XMP, IPTC) from the input to the output.")
    var stripMetadata = false

    func validate() throws {
        if let quality, !(1...100).contains(quality) {
            throw ValidationError(TextNumber.outOfRange("--quality", quality, 1...100))
        }
    }

    /// The encoder settings these options ask for.
    var encoder: EncoderOptions {
        EncoderOptions(quality: quality, tiffCompression: tiffCompression, webpLossless: webpLossless,
                       subsampling: subsampling)
    }

    /// The metadata these options carry.
    var metadata: MetadataOptions { MetadataOptions(stripAll: stripMetadata, stripGPS: stripGPS) }
}

/// `--in-place` and `--no-backup`: replacing the originals on purpose (apply and correct).
struct InPlaceOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Replace each input with its result (written beside it and renamed over it), keeping "
                             + "the original as NAME.orig.EXT; without it an output that is an input is refused."))
    var inPlace = false

    @Flag(help: "With --in-place, keep no NAME.orig.EXT backup of the originals.")
    var noBackup = false

    func validate() throws {
        if noBackup && !inPlace { throw ValidationError("--no-backup only goes with --in-place") }
    }
}
