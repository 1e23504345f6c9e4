import Pixels

/// PNG in the codec table: the codec itself lives in `Pixels`, which LUT files use without the other codecs.
extension PNGImage: ImageCodec {
    public static func decode(path: String, maxPixels: Int) throws(ImageIOError) -> DecodedImage {
        let decoded = try readWithColor(path: path, maxPixels: maxPixels)
        return DecodedImage(pixels: decoded.pixels, color: ColorDescription(png: decoded.color), format: .png)
    }

    public static func header(path: String, maxPixels: Int) throws(ImageIOError) -> ImageInfo {
        let reader = try PNGReader(path: path, maxPixels: maxPixels)
        let i = reader.info
        return ImageInfo(format: .png, width: i.width, height: i.height, channels: i.channels, depth: i.depth,
                         color: ColorDescription(png: reader.colorMetadata), stored: i.stored)
    }

    public static func encode(_ image: PixelBuffer, to path: String, format: ImageFormat, color: ColorDescription,
                              options: EncoderOptions) throws(ImageIOError) {
        try write(image, to: path, colorMetadata: color.png)
    }

    public static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)? {
        try PNGReader(path: path, maxPixels: maxPixels)
    }
}
