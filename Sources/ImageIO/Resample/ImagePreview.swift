import Pixels

/// A photo shrunk for analysis and previews (8-bit RGB, box-filtered), with the source's size and colour
/// description. PNG and TIFF stream in bands into the downscaler (the full image is never held); JPEG decodes at a
/// DCT-reduced size close to the target; the other formats decode whole.
public struct ImagePreview: Sendable {
    /// The downscaled copy, in the source's colour space.
    public let pixels: PixelBuffer
    /// The source's colour description.
    public let color: ColorDescription
    /// The source's size in pixels.
    public let sourceWidth: Int, sourceHeight: Int

    /// Shrinks an image in memory to at most `maxLongSide` on its long side (an integer box factor).
    public init(image: PixelBuffer, color: ColorDescription = ColorDescription(), maxLongSide: Int)
        throws(ImageIOError) {
        try self.init(shrinking: image, color: color, maxLongSide: maxLongSide, sourceWidth: image.width,
                      sourceHeight: image.height)
    }

    /// Shrinks rows in caller memory (an embedding app's image) row by row, as a file's rows stream in: the same
    /// preview as the file's for the same decoded pixels, with no copy of the image.
    public init(rows: PixelRows, color: ColorDescription = ColorDescription(), maxLongSide: Int) throws(ImageIOError) {
        var scaler = BoxDownscaler(width: rows.width, height: rows.height, maxLongSide: maxLongSide)
        let n = rows.rowSamples
        for y in 0..<rows.height {
            switch rows.depth {
            case .eight:
                let row = UnsafeBufferPointer(start: rows.row(y).assumingMemoryBound(to: UInt8.self), count: n)
                scaler.add(rows: 1, samples: row, channels: rows.channels)
            case .sixteen:
                let row = UnsafeBufferPointer(start: rows.row(y).assumingMemoryBound(to: UInt16.self), count: n)
                scaler.add(rows: 1, samples: row, channels: rows.channels)
            }
        }
        self.init(pixels: try scaler.finish(), color: color, sourceWidth: rows.width, sourceHeight: rows.height)
    }

    /// Shrinks `image`, itself the whole source or a reduced decode of a `sourceWidth × sourceHeight` one.
    private init(shrinking image: PixelBuffer, color: ColorDescription, maxLongSide: Int, sourceWidth: Int,
                 sourceHeight: Int) throws(ImageIOError) {
        var scaler = BoxDownscaler(width: image.width, height: image.height, maxLongSide: maxLongSide)
        // A box of one pixel is the pixel: an 8-bit RGB image already small enough is the preview as it is (a
        // JPEG decoded at a DCT-reduced size usually is).
        if scaler.factor == 1, image.channels == 3, case .eight = image.samples {
            self.init(pixels: image, color: color, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
            return
        }
        switch image.samples {
        case .eight(let s):
            s.withUnsafeBufferPointer { scaler.add(rows: image.height, samples: $0, channels: image.channels) }
        case .sixteen(let s):
            s.withUnsafeBufferPointer { scaler.add(rows: image.height, samples: $0, channels: image.channels) }
        }
        self.init(pixels: try scaler.finish(), color: color, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }

    /// Reads and shrinks an image file, `bandBytes` of source rows at a time where the format streams.
    public init(path: String, maxLongSide: Int, maxPixels: Int = PNGReader.defaultMaxPixels,
                bandBytes: Int = 4 << 20) throws(ImageIOError) {
        if try ImageFormat.of(path: path) == .jpeg {
            let reduced = try JPEGImage.read(path: path, previewLongSide: maxLongSide, maxPixels: maxPixels)
            try self.init(shrinking: reduced.pixels, color: ColorDescription(iccBytes: reduced.iccProfile),
                          maxLongSide: maxLongSide, sourceWidth: reduced.sourceWidth,
                          sourceHeight: reduced.sourceHeight)
            return
        }
        guard let reader = try ImageFormat.bandReader(path: path, maxPixels: maxPixels) else {
            let decoded = try ImageFormat.readImage(path: path, maxPixels: maxPixels)
            try self.init(image: decoded.pixels, color: decoded.color, maxLongSide: maxLongSide)
            return
        }
        let info = (width: reader.width, height: reader.height, channels: reader.channels, depth: reader.depth)
        var scaler = BoxDownscaler(width: info.width, height: info.height, maxLongSide: maxLongSide)
        let rowSamples = info.width * info.channels
        let bandRows = max(1, min(info.height, bandBytes / max(1, rowSamples * (info.depth == .eight ? 1 : 2))))
        switch info.depth {
        case .eight:
            try Self.streamBands(UInt8.self, reader: reader, bandRows: bandRows) {
                scaler.add(rows: $1, samples: $0, channels: info.channels)
            }
        case .sixteen:
            try Self.streamBands(UInt16.self, reader: reader, bandRows: bandRows) {
                scaler.add(rows: $1, samples: $0, channels: info.channels)
            }
        }
        self.init(pixels: try scaler.finish(), color: reader.color, sourceWidth: info.width,
                  sourceHeight: info.height)
    }

    private init(pixels: PixelBuffer, color: ColorDescription, sourceWidth: Int, sourceHeight: Int) {
        self.pixels = pixels
        self.color = color
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    /// Reads every row of `reader` in bands of `bandRows`, handing each band and its row count to `body`.
    private static func streamBands<Sample: BandRowSample>(
        _: Sample.Type, reader: any ImageBandReader, bandRows: Int,
        _ body: (UnsafeBufferPointer<Sample>, Int) -> Void
    ) throws(ImageIOError) {
        let info = (width: reader.width, height: reader.height, channels: reader.channels)
        var band = [Sample](repeating: 0, count: bandRows * info.width * info.channels)
        try band.withUnsafeMutableBufferPointer { (buffer) throws(ImageIOError) in
            var done = 0
            while done < info.height {
                let n = min(bandRows, info.height - done)
                try Sample.readRows(reader, n, into: buffer)
                body(UnsafeBufferPointer(buffer), n)
                done += n
            }
        }
    }
}
