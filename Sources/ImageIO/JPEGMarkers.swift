/// The metadata segments of a JPEG that LookStudio interprets itself: the EXIF orientation (APP1) and an ICC profile
/// (APP2 `ICC_PROFILE` chunks), parsed from the segments libjpeg saves before the first scan.
public struct JPEGMarkers: Sendable, Equatable {
    /// EXIF orientation 1…8 (1: stored upright; 6: rotate 90° clockwise to view; see `JPEGOrientation`).
    public var orientation: Int = 1
    /// The ICC profile reassembled from its APP2 chunks, or nil when the file has none (or the chunks disagree).
    public var iccProfile: [UInt8]?

    /// No orientation and no profile.
    public init(orientation: Int = 1, iccProfile: [UInt8]? = nil) {
        self.orientation = orientation
        self.iccProfile = iccProfile
    }

    /// Reads the segments before the first scan; malformed metadata is ignored, never fatal (the pixels decide).
    public init(parsing bytes: [UInt8]) {
        var chunks: [Int: [UInt8]] = [:]
        var chunkTotal = 0
        var i = 2
        // Segments are FF xx LL LL payload; stop at start-of-scan (FFDA) or end-of-image, where pixel data begins.
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { break }
            let payload = bytes[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, payload.starts(with: JPEGMarkers.exifHeader) {
                if let o = JPEGMarkers.exifOrientation(Array(payload.dropFirst(6))), (1...8).contains(o) {
                    orientation = o
                }
            } else if marker == 0xE2, payload.starts(with: JPEGMarkers.iccHeader), payload.count >= 14 {
                let seq = Int(payload[payload.startIndex + 12])
                chunkTotal = Int(payload[payload.startIndex + 13])
                chunks[seq] = Array(payload.dropFirst(14))
            }
            i += 2 + length
        }
        if chunkTotal > 0, chunks.count == chunkTotal {
            var profile: [UInt8] = []
            for seq in 1...chunkTotal {
                guard let chunk = chunks[seq] else { return }
                profile += chunk
            }
            iccProfile = profile
        }
    }

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let iccHeader: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    /// An APP2 segment holds at most 65535 − 2 (length) − 14 (header) profile bytes.
    static let iccChunkSize = 65_519

    /// Tag 0x0112 of IFD0 in a TIFF structure (either byte order), or nil.
    static func exifOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // Orientation is a SHORT, stored in the first two bytes of the value field.
            if tag == 0x0112 { return u16(at + 8) }
        }
        return nil
    }
}
