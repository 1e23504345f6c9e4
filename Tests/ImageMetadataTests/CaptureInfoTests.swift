import Foundation
@testable import ImageMetadata
import LookStudioTestSupport
import Testing

/// Capture times and cameras read from EXIF, for splitting a card into shoots (`correct --shoot-gap`).
@Suite struct CaptureInfoTests {
    static let folder = CLI.fixtures + "/capture"

    @Test("time with sub-seconds, make and model are read; files without EXIF have neither; unreadable ones say why")
    func readsCapture() throws {
        let a1 = CaptureInfo.read(path: Self.folder + "/a1.jpg")
        let a2 = CaptureInfo.read(path: Self.folder + "/a2.jpg")
        #expect(a1.camera == "Canon EOS R5")
        let t1 = try #require(a1.time), t2 = try #require(a2.time)
        #expect(abs(t2 - t1 - 300.5) < 1e-6, "10:00:00 → 10:05:00.50: \(t2 - t1)")
        #expect(CaptureInfo.read(path: Self.folder + "/b1.jpg").camera == "NIKON CORPORATION NIKON Z 6")
        #expect(CaptureInfo.read(path: Self.folder + "/u1.jpg") == CaptureInfo(time: nil, camera: nil))
        #expect(CaptureInfo.read(path: Self.folder + "/u2.png") == CaptureInfo(time: nil, camera: nil))
        for unreadable in ["missing.jpg", "make.py"] {
            let capture = CaptureInfo.read(path: Self.folder + "/" + unreadable)
            #expect(capture.time == nil && capture.camera == nil, "\(capture)")
            #expect(capture.problem.map { !$0.isEmpty } == true, "the reason is kept: \(capture)")
        }
    }

    @Test("EXIF times count as wall-clock seconds across days; blank and impossible dates are none")
    func parsesTimes() throws {
        let late = try #require(CaptureInfo.seconds("2026:04:30 23:00:00", subseconds: ""))
        let early = try #require(CaptureInfo.seconds("2026:05:01 10:00:00", subseconds: "25"))
        #expect(abs(early - late - 11 * 3600 - 0.25) < 1e-6)
        let iso = try #require(CaptureInfo.seconds("2026-05-01T10:00:00", subseconds: ""))
        #expect(abs(iso - (early - 0.25)) < 1e-6)
        #expect(CaptureInfo.seconds("0000:00:00 00:00:00", subseconds: "") == nil, "a camera without a clock")
        #expect(CaptureInfo.seconds("    :  :     :  :  ", subseconds: "") == nil)
        #expect(CaptureInfo.seconds("2026:13:01 10:00:00", subseconds: "") == nil)
        #expect(CaptureInfo.seconds("2026:05:01 10:00", subseconds: "") == nil)
    }

    @Test("damaged EXIF is no capture, never a crash: every byte of a1.jpg's EXIF segment flipped in turn")
    func damagedExif() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.folder + "/a1.jpg")))
        // The APP1 "Exif" segment: its length is the two bytes after the marker.
        let start = try #require(original.indices.dropLast(6).first {
            original[$0] == 0xFF && original[$0 + 1] == 0xE1 && original[($0 + 4)...($0 + 7)].elementsEqual("Exif".utf8)
        })
        let end = start + 2 + Int(original[start + 2]) << 8 + Int(original[start + 3])
        var read = 0, refused = 0
        for position in (start + 2)..<end {
            for value: UInt8 in [0x00, 0xFF, original[position] ^ 0x10] where value != original[position] {
                var damaged = original
                damaged[position] = value
                let path = dir + "/damaged.jpg"
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                let capture = CaptureInfo.read(path: path)
                if capture.time != nil { read += 1 }
                if capture.problem != nil { refused += 1 }
            }
        }
        #expect(read > 0, "most damage leaves the time readable")
        #expect(refused > 0, "a broken TIFF header is refused, and says so")
    }
}
