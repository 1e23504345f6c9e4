import Foundation
import LookCore
import Pixels

/// The file formats LookStudio reads and writes.
public enum LUTFileFormat: String, Sendable, Codable, CaseIterable {
    /// Adobe / Resolve `.cube` text.
    case cube
    /// Lustre / Flame / Nuke `.3dl` text.
    case threeDL = "3dl"
    /// A cube stored as a PNG image (tiled, strip or Hald layout).
    case png
    /// Academy / ASC Common LUT Format (SMPTE ST 2136-1) XML.
    case clf

    /// The usual file extension.
    public var fileExtension: String { rawValue }
}

/// A LUT read from a file, with what is known about how it was stored.
public struct LoadedLUT: Sendable, Equatable {
    /// The transform.
    public var lut: LUT
    /// The file format.
    public var format: LUTFileFormat
    /// A human description of the variant, e.g. "Resolve .cube", "tiled PNG 8-bit".
    public var dialect: String
    /// For PNGs: the layout the pixels were read in.
    public var layout: CubeLayout?
    /// For PNGs: sample depth; for `.3dl`: output bit depth.
    public var bits: Int?
    /// Every tolerated deviation.
    public var warnings: [FormatWarning]
}

/// The one entry point for reading and writing LUT files: picks the codec by extension, then by content.
public enum LUTFormat {
    /// The format of `path`, from its extension or, failing that, its first bytes.
    public static func format(of path: String) throws(LookFormatsError) -> LUTFileFormat {
        try requireLUTFile(path)
        let name = (path as NSString).lastPathComponent
        switch (path as NSString).pathExtension.lowercased() {
        case "cube": return .cube
        case "3dl": return .threeDL
        case "png": return .png
        case "clf": return .clf
        case let ext where CDLFile.fileExtensions.contains(ext):
            // Ten numbers, not a table: a CDL becomes a look through `import`, which composes it.
            throw LookFormatsError(file: name, "an ASC CDL is not a LUT file: store it as a look",
                                   storesAsLook: true)
        default: break
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LookFormatsError(file: name, "cannot open the file (does it exist and is it readable?)")
        }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 4096))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        let text = String(decoding: head, as: UTF8.self).uppercased()
        if text.contains("LUT_3D_SIZE") || text.contains("LUT_1D_SIZE") { return .cube }
        if text.contains("<PROCESSLIST") { return .clf }
        if text.contains("MESH") { return .threeDL }
        throw LookFormatsError(file: name, "unknown LUT format: expected a .cube, .3dl, .clf or .png file")
    }

    /// Refuses a folder, FIFO, socket or device given as a LUT, naming the path, before anything opens it.
    public static func requireLUTFile(_ path: String) throws(LookFormatsError) {
        if let refusal = InputFile.refusal(path, what: "a LUT file") { throw LookFormatsError(file: path, refusal) }
    }

    /// The format an output path asks for, by extension only.
    public static func outputFormat(of path: String) throws(LookFormatsError) -> LUTFileFormat {
        let ext = (path as NSString).pathExtension.lowercased()
        guard let format = LUTFileFormat(rawValue: ext) else {
            throw LookFormatsError(file: (path as NSString).lastPathComponent,
                                   "cannot tell the output format from \".\(ext)\": use .cube, .3dl, .clf or .png")
        }
        return format
    }

    /// Reads any supported LUT file; `layout` forces a PNG layout instead of detecting it.
    public static func read(path: String, layout: CubeLayout? = nil) throws(LookFormatsError) -> LoadedLUT {
        switch try format(of: path) {
        case .cube:
            let contents = try CubeFile.read(path: path)
            return LoadedLUT(lut: contents.lut, format: .cube,
                             dialect: contents.dialect == .resolve ? "Resolve .cube" : "Adobe/Iridas .cube",
                             layout: nil, bits: nil, warnings: contents.warnings)
        case .threeDL:
            let contents = try ThreeDLFile.read(path: path)
            let mesh = contents.hasMeshLine ? "with input mesh" : "size from Mesh header"
            return LoadedLUT(lut: contents.lut, format: .threeDL, dialect: ".3dl (\(mesh))",
                             layout: nil, bits: contents.outputBits, warnings: contents.warnings)
        case .clf:
            let contents = try CLFFile.read(path: path)
            return LoadedLUT(lut: contents.lut, format: .clf,
                             dialect: "CLF (" + contents.nodes.joined(separator: " → ") + ")",
                             layout: nil, bits: nil, warnings: contents.warnings)
        case .png:
            let (cube, detected, depth) = try CubeImage.read(path: path, layout: layout)
            let edited = SpatialEditCheck.warning(cube, layout: detected).map { [FormatWarning($0)] } ?? []
            return LoadedLUT(lut: LUT(cube: cube), format: .png, dialect: "\(detected.rawValue) PNG \(depth.rawValue)-bit",
                             layout: detected, bits: depth.rawValue, warnings: edited)
        }
    }

    /// Settings for writing a LUT file.
    public struct WriteOptions: Sendable {
        /// PNG layout (default: tiled when the size is a square, otherwise strip).
        public var layout: CubeLayout?
        /// PNG sample depth, or `.3dl` output bits (12 when nil).
        public var bits: Int?
        /// Resample to this cube size first.
        public var size: Int?

        /// Settings with everything at its default.
        public init(layout: CubeLayout? = nil, bits: Int? = nil, size: Int? = nil) {
            self.layout = layout
            self.bits = bits
            self.size = size
        }
    }

    /// Writes `lut` to `path` in the format its extension names; returns warnings (e.g. values clamped).
    ///
    /// `.cube` keeps shapers and domains as they are unless a size is asked for; PNG and `.3dl` hold a plain cube
    /// over 0…1, so other LUTs are baked first, and values outside 0…1 are clamped with a warning.
    @discardableResult
    public static func write(_ lut: LUT, to path: String, options: WriteOptions = WriteOptions()) throws -> [FormatWarning] {
        let name = (path as NSString).lastPathComponent
        let format = try outputFormat(of: path)
        if format == .cube {
            let out = options.size == nil ? lut : LUT(cube: try lut.bakedCube(size: options.size), title: lut.title)
            try CubeFile.write(out, to: path)
            return []
        }
        var warnings = [FormatWarning]()
        if !lut.isPlainCube {
            warnings.append(FormatWarning("the LUT has a 1D shaper or a non-unit input domain; baked into a plain cube for \(format.rawValue)"))
        }
        var cube = try lut.bakedCube(size: options.size)
        let (clamped, count) = cube.clampedToUnitRange()
        if count > 0 {
            let range = cube.valueRange
            var reach: [String] = []
            if range.lowerBound < 0 { reach.append("down to \(range.lowerBound)") }
            if range.upperBound > 1 { reach.append("up to \(range.upperBound)") }
            warnings.append(FormatWarning("\(count) values outside 0…1 (\(reach.joined(separator: ", "))) were "
                                          + "clamped: \(format.rawValue) cannot store them"))
            cube = clamped
        }
        switch format {
        case .threeDL:
            let bits = options.bits ?? 12
            guard [10, 12, 16].contains(bits) else {
                throw LookFormatsError(file: name, ".3dl output bits must be 10, 12 or 16, not \(bits)")
            }
            try ThreeDLFile.write(cube, to: path, outputBits: bits)
        case .png:
            let layout = options.layout ?? defaultLayout(size: cube.size)
            try CubeImage.write(cube, to: path, layout: layout, depth: try pngDepth(options.bits, file: name))
        case .clf:
            let title = lut.title ?? (path as NSString).deletingPathExtension
            try CLFFile.write(cube, to: path, id: UUID().uuidString, name: (title as NSString).lastPathComponent)
        case .cube:
            break
        }
        return warnings
    }

    /// Writes `lattice` as `write(_:to:options:)` writes its cube; an identity is written to `.cube` and PNG files
    /// value by value as it is computed, its cube never held (`.3dl` and CLF writers hold their whole text, the
    /// larger of the two, so they get the cube).
    @discardableResult
    public static func write(_ lattice: CubeLattice, title: String?, to path: String,
                             options: WriteOptions = WriteOptions()) throws -> [FormatWarning] {
        let name = (path as NSString).lastPathComponent
        let format = try outputFormat(of: path)
        guard case .identity(let identity) = lattice, options.size == nil || options.size == identity.size,
              format == .cube || format == .png else {
            return try write(LUT(cube: try lattice.materialized(), title: title), to: path, options: options)
        }
        if format == .cube {
            try CubeFile.write(identity, title: title, to: path)
        } else {
            try CubeImage.write(identity, size: identity.size, to: path,
                                layout: options.layout ?? defaultLayout(size: identity.size),
                                depth: try pngDepth(options.bits, file: name))
        }
        return []
    }

    private static func pngDepth(_ bits: Int?, file: String) throws(LookFormatsError) -> PixelBuffer.Depth {
        switch bits ?? 16 {
        case 8: return .eight
        case 16: return .sixteen
        case let other: throw LookFormatsError(file: file, "PNG bit depth must be 8 or 16, not \(other)")
        }
    }

    /// Tiled for square sizes (4, 16, 64, …), strip otherwise.
    public static func defaultLayout(size: Int) -> CubeLayout {
        let root = Int(Double(size).squareRoot().rounded())
        return root * root == size ? .tiled : .strip
    }
}
