import Foundation
import ImageIO
import ImageMetadata
import LookStudioTestSupport
import Testing

/// Metadata carried from a tagged JPEG into each output format, checked with exiftool.
@Suite struct MetadataCarrierTests {
    /// Runs exiftool and returns its JSON object for `path` (`-n`: numbers, `-G1`: group-qualified names).
    static func exiftool(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func tags(_ path: String) throws -> [String: Any] {
        let r = try exiftool(["-j", "-n", "-G1", path])
        let list = try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [[String: Any]]
        return try #require(list?.first)
    }

    /// A 64×48 JPEG tagged as a camera would (EXIF incl. GPS, XMP, IPTC), stored with orientation 6.
    static func taggedJPEG(in dir: String) throws -> String {
        var s = [UInt8](repeating: 0, count: 64 * 48 * 3)
        for i in s.indices { s[i] = UInt8((i * 7) % 251) }
        let path = dir + "/in.jpg"
        try JPEGImage.write(try PixelBuffer(width: 64, height: 48, channels: 3, samples: .eight(s)), to: path)
        let r = try exiftool(["-overwrite_original", "-Artist=Ann Photographer", "-Copyright=(c) Ann",
                              "-DateTimeOriginal=2024:05:06 07:08:09", "-Make=Canon", "-Model=EOS R5",
                              "-LensModel=RF 50mm", "-Software=Camera 1.0", "-Orientation#=6",
                              "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
                              "-XMP-dc:Creator=Ann Photographer", "-XMP-xmp:Rating=4", "-XMP-dc:Subject=beach",
                              "-IPTC:Keywords=beach", path])
        try #require(r.status == 0, "exiftool tagged the input")
        return path
    }

    @Test("EXIF, XMP (and IPTC where the container has it) carried; orientation, size, software fixed",
          arguments: ["jpg", "tif", "png", "webp"])
    func carried(ext: String) throws {
        let dir = NSTemporaryDirectory() + "lookstudio-meta-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.taggedJPEG(in: dir)
        let output = dir + "/out." + ext
        let warnings = try MetadataCarrier.write(from: input, to: output, options: MetadataOptions()) { temporary in
            let decoded = try ImageFormat.readImage(path: input)
            try ImageFormat.write(decoded.pixels, to: temporary, color: decoded.color)
        }
        #expect(warnings.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["in.jpg", "out." + ext])
        let t = try Self.tags(output)
        #expect(t["IFD0:Artist"] as? String == "Ann Photographer", "\(t)")
        #expect(t["IFD0:Copyright"] as? String == "(c) Ann")
        #expect(t["ExifIFD:DateTimeOriginal"] as? String == "2024:05:06 07:08:09")
        #expect(t["IFD0:Make"] as? String == "Canon" && t["IFD0:Model"] as? String == "EOS R5")
        #expect(t["ExifIFD:LensModel"] as? String == "RF 50mm")
        #expect(t["GPS:GPSLatitude"] as? Double ?? 0 > 48.85)
        #expect(t["XMP-dc:Creator"] as? String == "Ann Photographer")
        #expect(t["XMP-xmp:Rating"] as? Int == 4)
        // Fixed: the pixels were turned upright (48×64 now), and LookStudio wrote them.
        #expect(t["IFD0:Orientation"] as? Int == 1)
        #expect(t["ExifIFD:ExifImageWidth"] as? Int == 48 && t["ExifIFD:ExifImageHeight"] as? Int == 64)
        #expect(t["IFD0:Software"] as? String == "LookStudio")
        if ext == "jpg" || ext == "tif" { #expect(t["IPTC:Keywords"] as? String == "beach") }
    }

    @Test("strip GPS drops the position only; strip all drops everything", arguments: ["jpg", "tif", "png", "webp"])
    func stripping(ext: String) throws {
        let dir = NSTemporaryDirectory() + "lookstudio-meta-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.taggedJPEG(in: dir)
        for (name, options) in [("gps", MetadataOptions(stripGPS: true)), ("all", MetadataOptions(stripAll: true))] {
            let output = dir + "/\(name)." + ext
            try MetadataCarrier.write(from: input, to: output, options: options) { temporary in
                try ImageFormat.write(try ImageFormat.readImage(path: input).pixels, to: temporary)
            }
            let t = try Self.tags(output)
            #expect(!t.keys.contains { $0.hasPrefix("GPS:") }, "\(name): \(t.keys.sorted())")
            #expect((t["IFD0:Artist"] as? String == "Ann Photographer") == (name == "gps"), "\(name)")
            #expect((t["XMP-dc:Creator"] != nil) == (name == "gps"), "\(name)")
        }
    }

    @Test("a HEIC output keeps its pixels and says the metadata was not carried")
    func heic() throws {
        try #require(HEIFImage.canEncode(.heif), "libheif here has an HEVC encoder")
        let dir = NSTemporaryDirectory() + "lookstudio-meta-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.taggedJPEG(in: dir)
        let warnings = try MetadataCarrier.write(from: input, to: dir + "/o.heic", options: MetadataOptions()) {
            try ImageFormat.write(try ImageFormat.readImage(path: input).pixels, to: $0)
        }
        #expect(warnings.count == 1 && warnings[0].contains("not carried"), "\(warnings)")
        #expect(try ImageFormat.info(path: dir + "/o.heic").width == 48)
    }
}
