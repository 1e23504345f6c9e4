import Foundation
import ImageIO
import LookCore
import LookStudioTestSupport
import Testing

/// `correct --shoot`: one estimate for the photos of a folder, applied the same to each.
@Suite struct CorrectShootCommandTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    /// Copies three sample photos into `folder`.
    static func shoot(in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["astronaut", "chelsea", "coffee"] {
            try FileManager.default.copyItem(atPath: samples.appendingPathComponent(name + ".png").path,
                                             toPath: folder + "/\(name).png")
        }
    }

    /// The `auto` objects of `correct --json`'s output, in input order.
    static func autos(_ stdout: String) throws -> [[String: Any]] {
        let array = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]] ?? []
        return array.compactMap { $0["auto"] as? [String: Any] }
    }

    @Test("every photo of a folder gets the shoot's estimate and its own beside it; --explain says so")
    func oneEstimatePerShoot() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.shoot(in: dir + "/a")
        let r = try CLI.run(["correct", dir + "/a", "-o", dir + "/out", "--no-look", "--shoot", "--json",
                             "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        let autos = try Self.autos(r.stdout)
        #expect(autos.count == 3)
        let shoots = autos.compactMap { $0["shoot"] as? [String: Any] }
        #expect(shoots.count == 3, "\(r.stdout)")
        let estimates = shoots.compactMap { $0["shoot"] as? [String: Any] }
        #expect(estimates.compactMap { $0["photos"] as? Int } == [3, 3, 3])
        let casts = estimates.compactMap { $0["cast"] as? [Double] }
        #expect(casts.count == 3 && casts.allSatisfy { $0 == casts[0] }, "one cast for the shoot: \(casts)")
        let owns = shoots.compactMap { $0["own_cast"] as? [String: Double] }
        #expect(owns.count == 3 && owns[0] != owns[1], "each photo's own estimate differs: \(owns)")
        #expect(r.stderr.components(separatedBy: "shoot of 3 (as ").count == 4, "\(r.stderr)")
    }

    @Test("a shoot of one photo is corrected as without --shoot, byte for byte")
    func shootOfOne() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/one", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.samples.appendingPathComponent("coffee.png").path,
                                         toPath: dir + "/one/coffee.png")
        var r = try CLI.run(["correct", dir + "/one", "-o", dir + "/shoot/", "--no-look", "--shoot", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.autos(r.stdout).first?["shoot"] is NSNull, "\(r.stdout)")
        r = try CLI.run(["correct", dir + "/one", "-o", dir + "/alone/", "--no-look"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/shoot/coffee.png"))
                == Data(contentsOf: URL(fileURLWithPath: dir + "/alone/coffee.png")))
    }

    @Test("--shoot with --shard is refused: a shard would pool part of a shoot")
    func notWithShards() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.shoot(in: dir + "/a")
        let r = try CLI.run(["correct", dir + "/a", "-o", dir + "/out", "--shoot", "--shard", "0/2"])
        #expect(r.status == 64 && r.stderr.contains("--shoot pools every photo of a shoot"), "\(r.stderr)")
    }

    @Test("--shoot-gap splits a card by camera and capture time; each photo's JSON names its shoot")
    func splitByCaptureTime() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/card", withIntermediateDirectories: true)
        let names = ["a1.jpg", "a2.jpg", "a3.jpg", "b1.jpg", "u1.jpg", "u2.png"]
        for name in names {
            try FileManager.default.copyItem(atPath: CLI.fixtures + "/capture/" + name, toPath: dir + "/card/" + name)
        }
        let r = try CLI.run(["correct", dir + "/card", "-o", dir + "/out", "--no-look", "--shoot-gap", "30", "--json",
                             "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        let groups = try Self.autos(r.stdout).map { ($0["shoot"] as? [String: Any])?["group"] as? String }
        let card = dir + "/card"
        // a3 is four hours later and b1 another camera: shoots of one, corrected as without --shoot.
        #expect(groups == [card + " 2026-05-01 10:00:00–10:05:00, Canon EOS R5",
                           card + " 2026-05-01 10:00:00–10:05:00, Canon EOS R5", nil, nil,
                           card + " (no capture time)", card + " (no capture time)"], "\(r.stdout)")
        #expect(r.stderr.contains("shoot of 2 (\(card) (no capture time); as "), "\(r.stderr)")
        #expect(r.stderr.contains("\(card)/a3.jpg:\n  scene ") && r.stderr.components(separatedBy:
            "  shoot: the only photo of its shoot, corrected on its own evidence").count == 3, "\(r.stderr)")
        #expect(r.stderr.contains("note: 2 of 6 images were alone in their shoot (no other photo of their camera "
                                  + "within --shoot-gap) and were corrected as without --shoot: \(card)/a3.jpg, "
                                  + "\(card)/b1.jpg"), "\(r.stderr)")
        // EXIF whose TIFF header is broken: the photo still decodes, and the run says why it has no capture time.
        var broken = try [UInt8](Data(contentsOf: URL(fileURLWithPath: card + "/a2.jpg")))
        let tiff = try #require(broken.indices.dropLast(8).first { broken[$0...($0 + 5)].elementsEqual("Exif\0\0".utf8) })
        broken[tiff + 6] = 0
        try Data(broken).write(to: URL(fileURLWithPath: card + "/a2.jpg"))
        let warned = try CLI.run(["correct", card, "-o", dir + "/out4", "--no-look", "--shoot-gap", "30",
                                  "--strip-metadata"])
        #expect(warned.status == 0 && warned.stderr.contains("\(card)/a2.jpg: no capture time (")
                && warned.stderr.contains("); pooled with the folder's photos without one"), "\(warned.stderr)")
        let refused = try CLI.run(["correct", dir + "/card", "-o", dir + "/out2", "--shoot-gap", "0"])
        #expect(refused.status == 64 && refused.stderr.contains("--shoot-gap 0 is out of range"), "\(refused.stderr)")
        let sharded = try CLI.run(["correct", dir + "/card", "-o", dir + "/out3", "--shoot-gap", "30",
                                   "--shard", "0/2"])
        #expect(sharded.status == 64 && sharded.stderr.contains("--shoot pools"), "\(sharded.stderr)")
    }
}
