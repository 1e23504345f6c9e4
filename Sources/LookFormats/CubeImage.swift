import Foundation
import LookCore
import Pixels

/// How a cube's entries are arranged as pixels in a PNG "reference image" (BRIEF §2).
public enum CubeLayout: String, Sendable, Codable, CaseIterable {
    /// Core Image / GPUImage lookup: `N = T²`, image `N·T × N·T`, a T×T grid of N×N red/green tiles, blue per tile.
    case tiled
    /// Any N: image `N² × N`, N red/green tiles side by side, blue per tile.
    case strip
    /// ImageMagick / RawTherapee / G'MIC: level `L`, `N = L²`, image `L³ × L³`, entries in pixel order.
    case hald
}

/// Cube PNGs: rendering a cube into a layout, detecting a layout from pixels, and decoding it back.
///
/// Samples are data: 8-bit `v` reads as `v/255`, 16-bit as `v/65535`; writing clamps to 0…1 and rounds to nearest,
/// so a cube read from a PNG writes back to the identical pixels. Alpha is ignored.
public enum CubeImage {
    /// Pixel size of an N³ cube in `layout`; tiled and hald need N to be a square.
    public static func imageSize(cubeSize: Int, layout: CubeLayout) throws(LookFormatsError)
        -> (width: Int, height: Int) {
        let geometry = try Geometry(cubeSize: cubeSize, layout: layout)
        return (geometry.width, geometry.height)
    }

    /// The cube as pixels in `layout` (RGB, no alpha).
    public static func render(_ cube: ColorCube, layout: CubeLayout, depth: PixelBuffer.Depth)
        throws(LookFormatsError) -> PixelBuffer {
        let geometry = try Geometry(cubeSize: cube.size, layout: layout)
        let samples: PixelBuffer.Samples
        switch depth {
        case .eight: samples = .eight(geometry.image(cube.values, fullScale: 255))
        case .sixteen: samples = .sixteen(geometry.image(cube.values, fullScale: 65535))
        }
        do {
            return try PixelBuffer(width: geometry.width, height: geometry.height, channels: 3, samples: samples)
        } catch {
            throw LookFormatsError(file: "<\(layout.rawValue) image>", error.reason)
        }
    }

    /// Every layout and cube size whose image is exactly `width × height` (tiled and hald share square sizes).
    public static func candidates(width: Int, height: Int) -> [(layout: CubeLayout, size: Int)] {
        var out: [(layout: CubeLayout, size: Int)] = []
        if width == height, let t = exactCubeRoot(width) {
            let n = t * t
            if ColorCube.sizeRange.contains(n) {
                out.append((.tiled, n))
                out.append((.hald, n))
            }
        }
        if ColorCube.sizeRange.contains(height), width == height * height {
            out.append((.strip, height))
        }
        return out
    }

    /// The layout of a cube image, from its size and, when tiled and hald both fit, from which reading is smoother.
    public static func detectLayout(_ image: PixelBuffer, fileName: String) throws(LookFormatsError) -> CubeLayout {
        try detect(image, fileName: fileName).layout
    }

    /// Decodes a cube image in `layout`, or in the detected layout when `layout` is nil.
    public static func decode(_ image: PixelBuffer, layout: CubeLayout?, fileName: String)
        throws(LookFormatsError) -> ColorCube {
        if let layout {
            return try decode(image, geometry: geometry(of: image, layout: layout, fileName: fileName),
                              fileName: fileName)
        }
        return try detect(image, fileName: fileName).cube
    }

    /// Reads a cube PNG file; returns the cube with the layout and bit depth it was stored in.
    public static func read(path: String, layout: CubeLayout?) throws(LookFormatsError)
        -> (cube: ColorCube, layout: CubeLayout, depth: PixelBuffer.Depth) {
        let image: PixelBuffer
        do {
            image = try PNGImage.read(path: path, maxPixels: maxCubePixels)
        } catch {
            throw LookFormatsError(file: path, reason(error))
        }
        return try decodeWithLayout(image, layout: layout, fileName: path)
    }

    /// Writes a cube PNG atomically (temporary file renamed into place).
    public static func write(_ cube: ColorCube, to path: String, layout: CubeLayout, depth: PixelBuffer.Depth) throws {
        try cube.values.withUnsafeBufferPointer {
            try write($0, size: cube.size, to: path, layout: layout, depth: depth)
        }
    }

    /// Writes the N³ lattice `values` (N = `size`) as a cube PNG atomically, rendering and encoding a band of about
    /// a million pixels at a time, so neither the image (100 MB for 256³ at 16 bits) nor, for an identity, the
    /// cube is ever held whole.
    public static func write<V: LatticeValues>(_ values: V, size: Int, to path: String, layout: CubeLayout,
                                               depth: PixelBuffer.Depth) throws {
        let geometry = try Geometry(cubeSize: size, layout: layout)
        let writer = try PNGWriter(path: path, width: geometry.width, height: geometry.height, channels: 3,
                                   depth: depth, options: .data)
        let band = Swift.max(1, (1 << 20) / geometry.width)
        switch depth {
        case .eight:
            try writeBands(values, geometry: geometry, band: band) { (rows: UnsafeBufferPointer<UInt8>) in
                try writer.writeRows(rows)
            }
        case .sixteen:
            try writeBands(values, geometry: geometry, band: band) { (rows: UnsafeBufferPointer<UInt16>) in
                try writer.writeRows(rows)
            }
        }
        try writer.finish()
    }

    private static func writeBands<V: LatticeValues, S: FixedWidthInteger & UnsignedInteger>(
        _ values: V, geometry: Geometry, band: Int, writeRows: (UnsafeBufferPointer<S>) throws -> Void) throws {
        var pixels = [S](repeating: 0, count: band * geometry.width * 3)
        var y = 0
        while y < geometry.height {
            let rows = y..<Swift.min(geometry.height, y + band)
            try pixels.withUnsafeMutableBufferPointer { out in
                geometry.render(values, rows: rows, into: out, fullScale: Double(S.max))
                try writeRows(UnsafeBufferPointer(rebasing: out[..<(rows.count * geometry.width * 3)]))
            }
            y = rows.upperBound
        }
    }

    /// The cube as PNG bytes (e.g. for a catalog blob).
    public static func encodePNG(_ cube: ColorCube, layout: CubeLayout, depth: PixelBuffer.Depth) throws -> [UInt8] {
        try PNGImage.encode(render(cube, layout: layout, depth: depth), options: .data)
    }

    /// Decodes cube PNG bytes; `name` labels errors.
    public static func decodePNG(_ data: [UInt8], name: String, layout: CubeLayout?) throws(LookFormatsError)
        -> ColorCube {
        let image: PixelBuffer
        do {
            image = try PNGImage.decode(data, name: name, maxPixels: maxCubePixels)
        } catch {
            throw LookFormatsError(file: name, reason(error))
        }
        return try decodeWithLayout(image, layout: layout, fileName: name).cube
    }

    /// The largest cube image: a 256³ cube is 4096×4096 tiled or hald, 65536×256 as a strip.
    static let maxCubePixels = 4096 * 4096

    /// An image error as said about a LUT image: its pixel limit is the largest cube's, which no option raises.
    static func reason(_ error: ImageIOError) -> String {
        guard case .tooManyPixels(_, let width, let height, _) = error else { return error.reason }
        return "\(width)×\(height) = \(DecodeBudget.grouped(width * height)) pixels is more than a LUT image holds: "
            + "the largest, a 256³ cube, is 4096×4096 = 16,777,216 pixels"
    }

    /// How much smoother the chosen reading must be: its mean squared step along the cube's axes must be under this
    /// fraction of the other reading's. Measured: on every corpus and reference PNG the true reading is 16× (a
    /// level-4 Hald identity) to 190× smoother; noise gives 1×; an 8×8 image (4³) gives only 2.6× for an identity
    /// and 1.7× for a look, so a 4³ look is refused and needs its layout given.
    static let clearlySmoother = 0.5

    private static func decodeWithLayout(_ image: PixelBuffer, layout: CubeLayout?, fileName: String)
        throws(LookFormatsError) -> (cube: ColorCube, layout: CubeLayout, depth: PixelBuffer.Depth) {
        if let layout {
            let cube = try decode(image, geometry: geometry(of: image, layout: layout, fileName: fileName),
                                  fileName: fileName)
            return (cube, layout, image.depth)
        }
        let detected = try detect(image, fileName: fileName)
        return (detected.cube, detected.layout, image.depth)
    }

    private static func detect(_ image: PixelBuffer, fileName: String) throws(LookFormatsError)
        -> (layout: CubeLayout, cube: ColorCube) {
        let found = candidates(width: image.width, height: image.height)
        guard let first = found.first else {
            throw LookFormatsError(file: fileName, "\(image.width)×\(image.height) is not the size of a cube image: "
                + "tiled and hald images are square with a cube number of pixels per side (8, 27, 64, … 512, … "
                + "4096), strips are N² × N (e.g. 256×16)")
        }
        let firstCube = try decode(image, geometry: Geometry(cubeSize: first.size, layout: first.layout),
                                   fileName: fileName)
        guard found.count > 1 else { return (first.layout, firstCube) }
        let second = found[1]
        let secondCube = try decode(image, geometry: Geometry(cubeSize: second.size, layout: second.layout),
                                    fileName: fileName)
        let firstStep = meanStep(firstCube), secondStep = meanStep(secondCube)
        if firstStep < clearlySmoother * secondStep { return (first.layout, firstCube) }
        if secondStep < clearlySmoother * firstStep { return (second.layout, secondCube) }
        throw LookFormatsError(file: fileName, "\(image.width)×\(image.height) could be a "
            + "\(describe(first)) or a \(describe(second)) cube and the pixels do not tell them apart; give the "
            + "layout: \(first.layout.rawValue) or \(second.layout.rawValue)", layouts: [first.layout, second.layout])
    }

    private static func describe(_ candidate: (layout: CubeLayout, size: Int)) -> String {
        switch candidate.layout {
        case .tiled: return "tiled \(candidate.size)³"
        case .strip: return "strip \(candidate.size)³"
        case .hald: return "Hald level-\(Int(Double(candidate.size).squareRoot().rounded()))"
        }
    }

    /// Mean squared change between neighbouring entries along r, g and b, summed over channels.
    ///
    /// A colour edit keeps the cube smooth in its true layout (identity: exactly 1/(N−1) per step); read in the
    /// wrong layout, neighbouring entries come from distant pixels and the steps jump. Squaring weighs those jumps:
    /// with plain absolute steps the corpus margin was only 3×.
    static func meanStep(_ cube: ColorCube) -> Double {
        let n = cube.size
        return cube.values.withUnsafeBufferPointer { v -> Double in
            guard n > 1, let v = v.baseAddress else { return 0 }
            var total = 0.0
            // Along an axis whose entries lie `stride` floats apart, each block of n such planes holds its n − 1
            // neighbour pairs as one contiguous run: v[j + stride] − v[j] over the first (n − 1)·stride floats.
            // One branch-free loop per block, not a bounds test per entry (detection runs this on every candidate).
            var stride = 3
            for _ in 0..<3 {
                let run = stride * (n - 1), block = stride * n
                for start in Swift.stride(from: 0, to: 3 * n * n * n, by: block) {
                    let end = start + run
                    var lanes = SIMD8<Float>()
                    var j = start
                    while j + 8 <= end {
                        let d = UnsafeRawPointer(v + j + stride).loadUnaligned(as: SIMD8<Float>.self)
                            - UnsafeRawPointer(v + j).loadUnaligned(as: SIMD8<Float>.self)
                        lanes += d * d
                        j += 8
                    }
                    var sum = lanes.sum()
                    while j < end {
                        let d = v[j + stride] - v[j]
                        sum += d * d
                        j += 1
                    }
                    total += Double(sum)
                }
                stride *= n
            }
            return total / Double(3 * n * n * (n - 1))
        }
    }

    private static func geometry(of image: PixelBuffer, layout: CubeLayout, fileName: String)
        throws(LookFormatsError) -> Geometry {
        guard let match = candidates(width: image.width, height: image.height).first(where: { $0.layout == layout })
        else {
            let expected: String
            switch layout {
            case .tiled: expected = "tiled images are N·T × N·T with N = T² (8×8, 64×64, 512×512, …)"
            case .strip: expected = "strip images are N² × N (e.g. 256×16, 1089×33)"
            case .hald: expected = "Hald images are L³ × L³ (8×8, 27×27, 64×64, …, 512×512)"
            }
            throw LookFormatsError(file: fileName, "\(image.width)×\(image.height) is not a \(layout.rawValue) "
                + "cube image: \(expected)")
        }
        return try Geometry(cubeSize: match.size, layout: layout)
    }

    private static func decode(_ image: PixelBuffer, geometry: Geometry, fileName: String)
        throws(LookFormatsError) -> ColorCube {
        var values = [Float](repeating: 0, count: 3 * geometry.n * geometry.n * geometry.n)
        values.withUnsafeMutableBufferPointer { out in
            switch image.samples {
            case .eight(let s):
                s.withUnsafeBufferPointer { geometry.decode($0, channels: image.channels, fullScale: 255, into: out) }
            case .sixteen(let s):
                s.withUnsafeBufferPointer { geometry.decode($0, channels: image.channels, fullScale: 65535, into: out) }
            }
        }
        do {
            return try ColorCube(size: geometry.n, values: values)
        } catch {
            throw LookFormatsError(file: fileName, error.description)
        }
    }

    private static func exactCubeRoot(_ v: Int) -> Int? {
        let root = Int(cbrt(Double(v)).rounded())
        return root * root * root == v ? root : nil
    }
}

/// Where each cube entry sits in a layout's image.
struct Geometry {
    let layout: CubeLayout
    /// Entries per axis.
    let n: Int
    /// Tiles per side (tiled) or level (hald); unused for strips.
    let side: Int
    let width: Int
    let height: Int

    init(cubeSize n: Int, layout: CubeLayout) throws(LookFormatsError) {
        guard ColorCube.sizeRange.contains(n) else {
            throw LookFormatsError(file: "\(layout.rawValue) layout", "cube size \(n) is outside "
                + "\(ColorCube.sizeRange.lowerBound)…\(ColorCube.sizeRange.upperBound)")
        }
        self.layout = layout
        self.n = n
        switch layout {
        case .strip:
            side = 1
            width = n * n
            height = n
        case .tiled, .hald:
            let root = Int(Double(n).squareRoot().rounded())
            guard root * root == n else {
                let squares = (2...16).map { String($0 * $0) }.joined(separator: ", ")
                throw LookFormatsError(file: "\(layout.rawValue) layout", "a \(n)³ cube cannot be stored as "
                    + "\(layout.rawValue): it needs a square size (\(squares)); the strip layout takes any size")
            }
            side = root
            // Tiled is N·T wide; Hald is L³ = N·L wide: the same number, which is why the two can be confused.
            width = n * root
            height = width
        }
    }

    /// Entry index `r + N·g + N²·b` of pixel `(x, y)`, by the BRIEF §2 formulas.
    @inline(__always)
    func entryIndex(x: Int, y: Int) -> Int {
        switch layout {
        case .tiled: return x % n + n * (y % n) + n * n * ((y / n) * side + x / n)
        case .strip: return x % n + n * y + n * n * (x / n)
        case .hald: return y * width + x
        }
    }

    /// Renders image rows `rows` into `pixels`, which starts at the first of them.
    func render<V: LatticeValues, S: FixedWidthInteger & UnsignedInteger>(
        _ values: V, rows: Range<Int>, into pixels: UnsafeMutableBufferPointer<S>, fullScale: Double) {
        var p = 0
        for y in rows {
            for x in 0..<width {
                let e = 3 * entryIndex(x: x, y: y)
                for c in 0..<3 {
                    // Double keeps 16-bit rounding exact for every identity entry up to N = 256.
                    let v = min(max(Double(values[e + c]), 0), 1)
                    pixels[p + c] = S((v * fullScale).rounded())
                }
                p += 3
            }
        }
    }

    /// The whole image of a cube's entries, 0…1 mapped to 0…`fullScale`.
    func image<S: FixedWidthInteger & UnsignedInteger>(_ entries: [Float], fullScale: Double) -> [S] {
        var out = [S](repeating: 0, count: width * height * 3)
        out.withUnsafeMutableBufferPointer { pixels in
            entries.withUnsafeBufferPointer { render($0, rows: 0..<height, into: pixels, fullScale: fullScale) }
        }
        return out
    }

    func decode<S: FixedWidthInteger & UnsignedInteger>(_ samples: UnsafeBufferPointer<S>, channels: Int,
                                                        fullScale: Float, into values: UnsafeMutableBufferPointer<Float>) {
        // Every layout keeps runs of consecutive entries in consecutive pixels (a tile's or slice's row: N; a Hald
        // row: the whole width), so the layout's index formula runs once per run rather than per pixel.
        let run = layout == .hald ? width : n
        var p = 0
        for y in 0..<height {
            for x in stride(from: 0, to: width, by: run) {
                var e = 3 * entryIndex(x: x, y: y)
                for _ in 0..<run {
                    values[e] = Float(samples[p]) / fullScale
                    values[e + 1] = Float(samples[p + 1]) / fullScale
                    values[e + 2] = Float(samples[p + 2]) / fullScale
                    e += 3
                    p += channels
                }
            }
        }
    }
}
