/// Whole-image PNG reading and writing, for callers that want a `PixelBuffer` rather than row bands.
public enum PNGImage {
    /// Reads a PNG file whole (see `PNGReader` for the conversions applied).
    public static func read(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> PixelBuffer {
        try readAll(PNGReader(path: path, maxPixels: maxPixels))
    }

    /// Reads a PNG file whole together with its colour chunks (never applied to the samples).
    public static func readWithColor(path: String, maxPixels: Int = PNGReader.defaultMaxPixels)
        throws(ImageIOError) -> (pixels: PixelBuffer, color: PNGColorMetadata) {
        let reader = try PNGReader(path: path, maxPixels: maxPixels)
        return (try readAll(reader), reader.colorMetadata)
    }

    /// Decodes a PNG held in memory; `name` labels errors.
    public static func decode(_ data: [UInt8], name: String,
                              maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) -> PixelBuffer {
        try readAll(PNGReader(data: data, name: name, maxPixels: maxPixels))
    }

    /// Writes `image` to `path` atomically, with `colorMetadata`'s chunks (those libpng accepts).
    public static func write(_ image: PixelBuffer, to path: String, options: PNGWriteOptions = .photo,
                             colorMetadata: PNGColorMetadata = PNGColorMetadata()) throws(ImageIOError) {
        let writer = try PNGWriter(path: path, width: image.width, height: image.height, channels: image.channels,
                                   depth: image.depth, options: options, colorMetadata: colorMetadata)
        try writeAll(image, to: writer)
        try writer.finish()
    }

    /// Encodes `image` as PNG bytes in memory.
    public static func encode(_ image: PixelBuffer, options: PNGWriteOptions = .data,
                              colorMetadata: PNGColorMetadata = PNGColorMetadata()) throws(ImageIOError) -> [UInt8] {
        let writer = try PNGWriter(memoryWidth: image.width, height: image.height, channels: image.channels,
                                   depth: image.depth, options: options, colorMetadata: colorMetadata)
        try writeAll(image, to: writer)
        return try writer.finishData()
    }

    private static func readAll(_ reader: PNGReader) throws(ImageIOError) -> PixelBuffer {
        let info = reader.info
        let count = info.width * info.height * info.channels
        let samples: PixelBuffer.Samples
        switch info.depth {
        case .eight:
            var buffer = [UInt8](repeating: 0, count: count)
            try buffer.withUnsafeMutableBufferPointer { (rows) throws(ImageIOError) in
                try reader.readRows(info.height, into: rows)
            }
            samples = .eight(buffer)
        case .sixteen:
            var buffer = [UInt16](repeating: 0, count: count)
            try buffer.withUnsafeMutableBufferPointer { (rows) throws(ImageIOError) in
                try reader.readRows(info.height, into: rows)
            }
            samples = .sixteen(buffer)
        }
        return try PixelBuffer(width: info.width, height: info.height, channels: info.channels, samples: samples)
    }

    private static func writeAll(_ image: PixelBuffer, to writer: PNGWriter) throws(ImageIOError) {
        switch image.samples {
        case .eight(let samples):
            try samples.withUnsafeBufferPointer { (rows) throws(ImageIOError) in try writer.writeRows(rows) }
        case .sixteen(let samples):
            try samples.withUnsafeBufferPointer { (rows) throws(ImageIOError) in try writer.writeRows(rows) }
        }
    }
}
