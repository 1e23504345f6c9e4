import Foundation
import Hashing
import LookCore

/// What went wrong loading a correction model file.
public enum CorrectionModelError: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case malformed(String, String)
    case corrupt(String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "correction model not found at \(path) (rebuild with `make train-correction`)"
        case .malformed(let path, let why):
            return "correction model \(path) is malformed: \(why)"
        case .corrupt(let path, let expected, let actual):
            return "correction model \(path) is corrupt: parameters hash to \(actual), header says \(expected)"
        }
    }
}

/// The learned correction (docs/CORRECTION.md): FFCC-style filters over a log-chroma histogram (cast) and a
/// log-luminance histogram (exposure), trained by scripts/train/train.py; mirrors scripts/train/model.py.
public struct CorrectionModel: Sendable {
    /// The settings and training record the file's JSON header carries.
    public struct Header: Sendable, Codable, Equatable {
        public var n_uv: Int, duv: Double, n_y: Int, dy: Double, y_low: Double, c_min: Double, n_c: Int
        public var dark: Double, bright: Double, long_side: Int, veil_threshold: Double
        public var chroma_ramp: [Double], luma_ramp: [Double]
        public var body_sha256: String, corpus_manifest_sha256: String
        public var train_photos: Int, validation_photos: Int, smoke: Bool
    }

    /// The file format version this reader understands.
    public static let formatVersion: UInt32 = 1

    /// The file's format version.
    public let version: UInt32
    /// Settings and training record.
    public let header: Header
    /// SHA-256 of the parameter block, checked against the header on load.
    public let bodyHash: String
    let chromaBias: [Float], lumaFilter: [Float], lumaBias: [Float]
    /// The chroma filter with every row written twice (n × 2n), for wrap-free reads.
    let wideFilter: [Float]

    /// Reads and verifies a model file.
    public init(contentsOf url: URL) throws(CorrectionModelError) {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw .missing(url.path) }
        try self.init(data: data, path: url.path)
    }

    /// Parses a model from its bytes (`path` names it in errors).
    public init(data: Data, path: String) throws(CorrectionModelError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("LSCM".utf8) else {
            throw .malformed(path, "no 'LSCM' magic")
        }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        version = u32(4)
        guard version == Self.formatVersion else { throw .malformed(path, "format version \(version), reader 1") }
        let headerLength = Int(u32(8))
        guard 12 + headerLength <= bytes.count else { throw .malformed(path, "header runs past the end") }
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(bytes[12..<(12 + headerLength)]))
        } catch {
            throw .malformed(path, "header: \(error)")
        }
        let body = Array(bytes[(12 + headerLength)...])
        bodyHash = SHA256.hex(body)
        guard bodyHash == header.body_sha256 else {
            throw .corrupt(path, expected: header.body_sha256, actual: bodyHash)
        }
        let h = header
        let sizes = [h.n_uv * h.n_uv, h.n_uv * h.n_uv, h.n_y + h.n_c - 1, h.n_c]
        guard body.count == sizes.reduce(0, +) * 4, h.chroma_ramp.count == 2, h.luma_ramp.count == 2 else {
            throw .malformed(path, "parameter block of \(body.count) bytes does not match the header's shapes")
        }
        var floats = [Float](repeating: 0, count: body.count / 4)
        floats.withUnsafeMutableBytes { out in body.withUnsafeBytes { out.copyMemory(from: $0) } }
        var start = 0
        var parts: [[Float]] = []
        for size in sizes {
            parts.append(Array(floats[start..<(start + size)]))
            start += size
        }
        (chromaBias, lumaFilter, lumaBias) = (parts[1], parts[2], parts[3])
        let n = h.n_uv
        wideFilter = (0..<(2 * n * n)).map { parts[0][($0 / (2 * n)) * n + $0 % n] }
    }

    /// Where the shipped model file is: this module's SwiftPM resource folder (`LookStudio_CorrectionModel.resources/`)
    /// beside the executable, as SwiftPM builds it, or beside liblookstudio.so, or in PREFIX/share/lookstudio, where
    /// `make install` puts it; else in the source tree. Looked up by hand: SwiftPM's `Bundle.module` stops the
    /// process when the folder is missing; this reports it instead.
    public static var bundledURL: URL {
        let name = "LookStudio_CorrectionModel.resources/correction-model.lscm"
        var folders = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        for folder in [CodeLocation.directory, CodeLocation.installedShareDirectory].compactMap({ $0 }) {
            folders.append(URL(fileURLWithPath: folder))
        }
        for folder in folders {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/correction-model.lscm")
    }

    /// The model shipped with LookStudio.
    public static func bundled() throws(CorrectionModelError) -> CorrectionModel {
        try CorrectionModel(contentsOf: bundledURL)
    }
}
