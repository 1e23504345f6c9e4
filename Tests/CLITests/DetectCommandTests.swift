import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

@Suite struct DetectCommandTests {
    static let astronaut = CLI.packageRoot + "/samples/astronaut.png"

    @Test("detect --json lists the portrait's face as {x, y, width, height, score} inside the image, scene 1")
    func jsonFaces() throws {
        let r = try CLI.run(["detect", Self.astronaut, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["label"] as? Int == 1)
        let faces = try #require(object["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        #expect(Set(face.keys) == ["x", "y", "width", "height", "score"])
        let x = face["x"] as? Int ?? -1, y = face["y"] as? Int ?? -1
        let w = face["width"] as? Int ?? 0, h = face["height"] as? Int ?? 0
        #expect(x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= 512 && y + h <= 512)
        #expect((face["score"] as? Double ?? 0) >= 0.5)
        let statistics = try #require(object["statistics"] as? [String: Any])
        #expect((statistics["face_mean_luma"] as? Double ?? 0) > 0)
    }

    @Test("detect --json has an empty faces array for the coffee cup; the text output prints the count")
    func noFacesAndText() throws {
        let r = try CLI.run(["detect", CLI.packageRoot + "/samples/coffee.png", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect((object?["faces"] as? [Any])?.isEmpty == true)
        let text = try CLI.run(["detect", Self.astronaut])
        #expect(text.stdout.contains("faces: 1\n"))
        #expect(text.stdout.contains("scene: 1 Auto — People"))
    }

    @Test("--overlay writes a PNG of the input's size with the box drawn on it; a non-PNG name is refused")
    func overlay() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A JPEG input of an odd size: the overlay is drawn on the full decode, not the analysis copy.
        let source = try PNGImage.read(path: Self.astronaut)
        try ImageFormat.write(source, to: dir + "/portrait.jpg", jpegQuality: 95)
        let r = try CLI.run(["detect", dir + "/portrait.jpg", "--overlay", dir + "/overlay.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let drawn = try PNGImage.read(path: dir + "/overlay.png")
        #expect(drawn.width == source.width && drawn.height == source.height && drawn.channels == 3)
        // The box's green line crosses the face's left edge (about x = 173…176 at mid-height).
        guard case .eight(let s) = drawn.samples else { throw ImageIOError.unsupportedChannels(0) }
        let green = (160..<190).contains { x in
            let i = (130 * drawn.width + x) * 3
            return s[i] < 100 && s[i + 1] > 200 && s[i + 2] < 100
        }
        #expect(green)
        let refused = try CLI.run(["detect", Self.astronaut, "--overlay", dir + "/overlay.jpg"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("PNG"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/overlay.jpg"))
    }
}
