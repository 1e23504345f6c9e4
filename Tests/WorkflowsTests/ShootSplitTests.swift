import ImageMetadata
import Testing
@testable import Workflows

/// A folder split into shoots by camera and capture-time gaps (`correct --shoot-gap`).
@Suite struct ShootSplitTests {
    static let t0 = 1_777_629_600.0  // 2026-05-01 10:00:00

    @Test("a gap longer than the limit or another camera starts a shoot; undated photos stay together, last")
    func splits() {
        let captures: [Int: CaptureInfo] = [
            0: CaptureInfo(time: Self.t0 + 300, camera: "Canon EOS R5"),
            1: CaptureInfo(time: Self.t0, camera: "Canon EOS R5"),
            2: CaptureInfo(time: Self.t0 + 300 + 1800, camera: "Canon EOS R5"),
            3: CaptureInfo(time: Self.t0 + 300 + 1800 + 1801, camera: "Canon EOS R5"),
            4: CaptureInfo(time: Self.t0 + 60, camera: "NIKON Z 6"),
            5: CaptureInfo(time: nil, camera: "Canon EOS R5"),
        ]
        let shoots = ShootSplit.split(Array(0...6), folder: "card", captures: captures, gap: 1800)
        #expect(shoots.map(\.members) == [[1, 0, 2], [3], [4], [5, 6]], "a gap of exactly 30 min is one shoot")
        #expect(shoots[0].label == "card 2026-05-01 10:00:00–10:35:00, Canon EOS R5")
        #expect(shoots[2].label == "card 2026-05-01 10:01:00–10:01:00, NIKON Z 6")
        #expect(shoots[3].label == "card (no capture time)")
    }

    @Test("a shoot over midnight names both days; a camera without a name is one camera")
    func labels() {
        let captures: [Int: CaptureInfo] = [
            0: CaptureInfo(time: Self.t0 + 13 * 3600 + 50 * 60, camera: nil),
            1: CaptureInfo(time: Self.t0 + 14 * 3600 + 10 * 60, camera: nil),
        ]
        let shoots = ShootSplit.split([0, 1], folder: "night", captures: captures, gap: 3600)
        #expect(shoots.map(\.label) == ["night 2026-05-01 23:50:00–2026-05-02 00:10:00"])
        #expect(ShootSplit.split([], folder: "empty", captures: [:], gap: 60).isEmpty)
    }
}
