import CMetadata
import Foundation

/// When and with which camera a photo was taken, from its EXIF: what splits a memory card into shoots.
public struct CaptureInfo: Sendable, Equatable {
    /// The capture time as seconds of the camera's wall clock (DateTimeOriginal, else DateTimeDigitized, with
    /// their sub-seconds), counted as if it were UTC: comparable between photos of one camera, as no time zone is
    /// known. Nil when the file holds none, or a date no clock gives ("0000:00:00 00:00:00").
    public var time: Double?
    /// Make, model and body serial number, joined by spaces; nil when the file names none.
    public var camera: String?
    /// Why the file's metadata could not be read (then it has neither time nor camera); nil when it was read.
    public var problem: String?

    /// A capture from its parts.
    public init(time: Double?, camera: String?, problem: String? = nil) {
        self.time = time
        self.camera = camera
        self.problem = problem
    }

    /// Reads `path`'s capture time and camera; a file whose metadata exiv2 cannot read has neither, and says why.
    public static func read(path: String) -> CaptureInfo {
        var capture = lsmeta_capture()
        var message = [CChar](repeating: 0, count: 256)
        guard lsmeta_read_capture(path, &capture, &message, message.count) == Int32(LSMETA_OK.rawValue) else {
            let reason = cText(message)
            return CaptureInfo(time: nil, camera: nil, problem: reason.isEmpty ? "unreadable metadata" : reason)
        }
        let time = text(&capture.time), subseconds = text(&capture.subseconds), camera = text(&capture.camera)
        return CaptureInfo(time: seconds(time, subseconds: subseconds), camera: camera.isEmpty ? nil : camera)
    }

    /// "YYYY:MM:DD HH:MM:SS" and its sub-second digits as wall-clock seconds; nil when malformed or impossible.
    static func seconds(_ text: String, subseconds: String) -> Double? {
        let fields = text.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" || $0 == "T" }).map { Int($0) }
        guard fields.count == 6, let y = fields[0], let mo = fields[1], let d = fields[2], let h = fields[3],
              let mi = fields[4], let s = fields[5], (1...9999).contains(y), (1...12).contains(mo),
              (1...31).contains(d), (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let components = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        guard let date = calendar.date(from: components) else { return nil }
        let digits = subseconds.prefix { $0.isASCII && $0.isNumber }
        let fraction = digits.isEmpty ? 0 : (Double("0." + digits) ?? 0)
        return date.timeIntervalSince1970 + fraction
    }

    private static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
