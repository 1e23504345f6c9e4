@testable import PluginHost
import Testing

/// The `evaluate` frame with typed values: variable length, bounded, and checked when read.
@Suite("Plugin host protocol (PluginHostProtocol.swift)")
struct PluginHostProtocolTests {
    /// A payload of `words` (UInt32, little-endian), `floats` and `points` RGB pixels.
    private func payload(_ words: [UInt32], floats: [Float], points: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for word in words { withUnsafeBytes(of: word.littleEndian) { bytes += $0 } }
        for value in floats + [Float](repeating: 0.5, count: 3 * points) { withUnsafeBytes(of: value) { bytes += $0 } }
        return bytes
    }

    private func layout(_ bytes: [UInt8]) throws -> EvaluateFrame.Layout {
        try bytes.withUnsafeBytes { try EvaluateFrame.layout(of: $0) }
    }

    @Test("the header gives each parameter's float count; the layout read back finds values and points")
    func roundTrip() throws {
        let values: [ParameterValue] = [.curve([SIMD2(0, 0), SIMD2(0.5, 0.4), SIMD2(1, 1)]), .color(SIMD3(1, 2, 3)),
                                        .choice(1), .number(0.25)]
        let header = try #require(EvaluateFrame.header(index: 7, values: values))
        #expect(header == [7, 4, 6, 3, 1, 1])
        let read = try layout(payload(header, floats: values.flatMap(\.floats), points: 5))
        #expect(read == EvaluateFrame.Layout(index: 7, counts: [6, 3, 1, 1], valuesOffset: 24, pointsOffset: 68))
    }

    @Test("more than 32 parameters, or a value over 128 floats, is not sent")
    func sendBounds() {
        #expect(EvaluateFrame.header(index: 0, values: Array(repeating: .number(0), count: 33)) == nil)
        let huge = ParameterValue.curve((0..<65).map { SIMD2(Float($0), 0) })
        #expect(EvaluateFrame.header(index: 0, values: [huge]) == nil)
        #expect(EvaluateFrame.header(index: 0, values: Array(repeating: .number(0), count: 32)) != nil)
    }

    @Test("a received frame that declares too many parameters or floats, or does not add up, is malformed")
    func receiveBounds() {
        #expect(throws: FrameFailure.malformed("an evaluate frame of 4 bytes")) { try layout([0, 0, 0, 0]) }
        #expect(throws: FrameFailure.malformed("an evaluate frame of 8 bytes declaring 33 parameters")) {
            try layout(payload([0, 33], floats: [], points: 0))
        }
        #expect(throws: FrameFailure.malformed("an evaluate frame of 12 bytes declaring 2 parameters")) {
            try layout(payload([0, 2, 1], floats: [], points: 0))
        }
        #expect(throws: FrameFailure.malformed("an evaluate frame with a parameter of 129 floats")) {
            try layout(payload([0, 1, 129], floats: [], points: 1))
        }
        #expect(throws: FrameFailure.malformed("an evaluate frame of 20 bytes with 1 parameters")) {
            try layout(payload([0, 1, 3], floats: [1, 2], points: 0))
        }
        #expect(throws: FrameFailure.malformed("an evaluate frame of 24 bytes with 1 parameters")) {
            try layout(payload([0, 1, 1], floats: [1, 2, 3], points: 0))
        }
    }
}
