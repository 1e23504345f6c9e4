import CMetadata
import Foundation
import ImageIO

/// What to carry from an input's metadata into its output.
public struct MetadataOptions: Sendable, Equatable {
    /// Write none of the input's metadata.
    public var stripAll = false
    /// Drop GPS position tags (EXIF GPSInfo, XMP exif:GPS*).
    public var stripGPS = false
    /// The Software tag (and XMP CreatorTool) written; nil keeps the input's.
    public var software: String? = "LookStudio"

    /// Carry everything, with LookStudio as the software.
    public init(stripAll: Bool = false, stripGPS: Bool = false, software: String? = "LookStudio") {
        self.stripAll = stripAll
        self.stripGPS = stripGPS
        self.software = software
    }
}

/// A failure to carry metadata; the output is not written.
public struct MetadataError: Error, Equatable, CustomStringConvertible {
    /// The file concerned.
    public let file: String
    /// exiv2's reason.
    public let reason: String
    public var description: String { "\(file): cannot carry metadata (exiv2: \(reason))" }
}

/// A writer's error about the temporary file, told about the output the user named.
public struct OutputError: Error, CustomStringConvertible {
    /// The message, naming the output.
    public let description: String
    /// The writer's own error.
    public let underlying: any Error
}

/// Copies EXIF (maker notes included), XMP and IPTC from an input to its output with exiv2, after the pixels are
/// written and before the output is renamed into place, fixing what processing changed: orientation 1 (the pixels
/// were turned upright), pixel dimensions, the colour-space tag agreeing with the ICC profile written, Software.
public enum MetadataCarrier {
    /// Writes `output` by calling `write` with a hidden temporary path that keeps `output`'s extension (so the
    /// writer picks the format), carries `input`'s metadata into it, then renames it over `output`. Returns
    /// warnings (a format exiv2 cannot write: HEIF and AVIF outputs keep their pixels and ICC profile only).
    @discardableResult
    public static func write(from input: String, to output: String, options: MetadataOptions,
                             _ write: (String) throws -> Void) throws -> [String] {
        let temporary = AtomicFile.temporaryPath(for: output, keepingExtension: true)
        do {
            try write(temporary)
            let warnings = try copy(from: input, to: temporary, named: output, options: options)
            try AtomicFile.commit(temporary: temporary, to: output)
            return warnings
        } catch {
            AtomicFile.discard(temporary: temporary)
            // The writer names the file it was given; the user named `output`.
            let text = "\(error)"
            guard text.contains(temporary) else { throw error }
            throw OutputError(description: text.replacingOccurrences(of: temporary, with: output), underlying: error)
        }
    }

    /// Copies `input`'s metadata into the finished image `target` in place; `name` labels errors.
    public static func copy(from input: String, to target: String, named name: String,
                            options: MetadataOptions) throws -> [String] {
        let written = try ImageFormat.info(path: target, maxPixels: .max)
        if written.format == .heif || written.format == .avif {
            return options.stripAll ? [] : ["\(name): metadata not carried (exiv2 cannot write HEIF or AVIF; "
                                            + "the pixels and ICC profile are written)"]
        }
        let source = try? ImageFormat.info(path: input, maxPixels: .max)
        var c = lsmeta_options()
        c.strip_all = options.stripAll ? 1 : 0
        c.strip_gps = options.stripGPS ? 1 : 0
        c.width = Int32(clamping: written.width)
        c.height = Int32(clamping: written.height)
        c.color_space = colorSpace(written: written.color.iccProfile?.data, source: source?.color.iccProfile?.data)
        var message = [CChar](repeating: 0, count: 512)
        let status: Int32 = options.software.withOptionalCString { software in
            c.software = software
            return lsmeta_copy(input, target, &c, &message, message.count)
        }
        let reason = cText(message)
        switch status {
        case Int32(LSMETA_OK.rawValue): return []
        case Int32(LSMETA_ERR_SOURCE.rawValue): throw MetadataError(file: input, reason: reason)
        case Int32(LSMETA_UNSUPPORTED.rawValue): return ["\(name): metadata not carried (\(reason))"]
        default: throw MetadataError(file: name, reason: reason)
        }
    }

    /// EXIF ColorSpace for the profile written: kept (0) when it is the input's, 1 (sRGB) when untagged or an sRGB
    /// profile, else 65535 (uncalibrated: the ICC profile says what the colours are).
    static func colorSpace(written: [UInt8]?, source: [UInt8]?) -> Int32 {
        if written == source { return 0 }
        guard let written else { return 1 }
        return written.firstRange(of: Array("sRGB".utf8)) != nil ? 1 : 65535
    }
}

extension Optional where Wrapped == String {
    /// Calls `body` with a C string, or NULL for nil.
    fileprivate func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let s): return s.withCString { body($0) }
        case .none: return body(nil)
        }
    }
}
