extension ImageFormat {
    /// A row-streaming reader for `path` when its format streams (PNG, TIFF, a JPEG that needs no rotation);
    /// nil for formats that decode whole.
    public static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)? {
        switch try ImageFormat.of(path: path) {
        case .png: return try PNGReader(path: path, maxPixels: maxPixels)
        case .tiff: return try TIFFReader(path: path, maxPixels: maxPixels)
        case .jpeg:
            let jpeg = try JPEGReader(path: path, maxPixels: maxPixels)
            return jpeg.markers.orientation == 1 ? jpeg : nil
        default: return nil
        }
    }
}
