import Foundation
import ImageIO
import LookCore
import LookStudioTestSupport
import Testing

/// `correct` on a weak scene guess: its preset's pushes are left out, and --explain says so.
@Suite struct ScenePresetCommandTests {
    /// A near-white frame around a coloured block covering 65 % of it: White Backgrounds, but only just (about
    /// 35 % near-white against the rule's 30 %).
    static func faintBackdrop() throws -> PixelBuffer {
        let side = 200, inner = 161, start = (side - inner) / 2
        var s = [UInt8](repeating: 246, count: side * side * 3)
        for y in start..<(start + inner) {
            for x in start..<(start + inner) {
                let i = (y * side + x) * 3
                s[i] = UInt8(60 + x / 2)
                s[i + 1] = UInt8(90 + y / 3)
                s[i + 2] = UInt8(40 + (x + y) / 4)
            }
        }
        return try PixelBuffer(width: side, height: side, channels: 3, samples: .eight(s))
    }

    @Test("correct: a weak White Backgrounds guess does not whiten a backdrop; --scene 8 does, and --explain says why")
    func weakBackdrop() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.faintBackdrop(), to: dir + "/in.png")
        let common = ["correct", dir + "/in.png", "-o", dir + "/out.png", "--no-look", "--catalog",
                      dir + "/catalog.sqlite"]
        func json(_ extra: [String]) throws -> [String: Any] {
            let r = try CLI.run(common + ["--json"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
            return try #require(array?.first)
        }
        func settings(_ result: [String: Any]) throws -> [String: Any] {
            let auto = try #require(result["auto"] as? [String: Any])
            return try #require(auto["settings"] as? [String: Any])
        }
        let guessed = try json([])
        #expect(guessed["scene"] as? Int == 8)
        let confidence = try #require(guessed["confidence"] as? Double)
        #expect(confidence < 0.75, "the test image is a weak detection: \(confidence)")
        let held = try settings(guessed)
        #expect(held["keep_white"] as? Bool == false, "\(held)")
        #expect(held["contrast"] as? Double == 0 && held["vibrance"] as? Double == 50, "restraints stay: \(held)")
        let given = try settings(try json(["--scene", "8"]))
        #expect(given["keep_white"] as? Bool == true, "a scene the user gives is not a guess: \(given)")
        let explained = try CLI.run(common + ["--explain"])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("scene preset: only the preset's restraints: detection confidence"),
                "\(explained.stdout)")
        let givenText = try CLI.run(common + ["--explain", "--scene", "8"])
        #expect(!givenText.stdout.contains("scene preset:"), "\(givenText.stdout)")
    }
}
