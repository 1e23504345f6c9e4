import LookFormats

/// A Hald CLUT PNG (ImageMagick `-hald-clut`, RawTherapee film simulation, G'MIC, FFmpeg `haldclut`).
enum HaldTarget {
    static let target = ExportTarget(
        id: "hald", format: "Hald CLUT PNG (ImageMagick, RawTherapee, G'MIC, FFmpeg haldclut)", fileExtension: "png",
        defaultSize: 64, sizes: 4...256, valueRange: "PNG 16-bit 0…65535",
        cannotCarry: "strength, a working space other than sRGB, sizes that are not squares (level² points)",
        write: { look, size, path in
            guard LUTFormat.defaultLayout(size: size) == .tiled else {
                throw ExportError(target: "hald",
                                  "a Hald image needs a square size (level²: 4, 16, 36, 64, …), not \(size)")
            }
            let (cube, warnings) = try look.table(size: size, target: "hald")
            try CubeImage.write(cube, to: path, layout: .hald, depth: .sixteen)
            return ExportResult(files: [path], warnings: warnings)
        })
}
