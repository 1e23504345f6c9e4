import Pixels

extension ImageFormat {
    /// A row-streaming reader for `path` when its format streams (PNG, TIFF, a JPEG that needs no rotation);
    /// nil for formats that decode whole.
    public static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)? {
        try ImageFormat.of(path: path).codec.bandReader(path: path, maxPixels: maxPixels)
    }
}
