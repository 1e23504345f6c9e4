import LookStudioKit
import Testing

/// Bad descriptions are errors with a message that says what to change, never a crash.
@Suite struct ImageTests {
    private func refusal(width: Int = 4, height: Int = 4, channels: Int = 3, bits: Int = 8, rowBytes: Int = 12,
                         null: Bool = false, offset: Int = 0, icc: [UInt8]? = nil) -> LookStudioError? {
        var memory = [UInt8](repeating: 0, count: 256)
        return memory.withUnsafeMutableBytes { raw in
            #expect(throws: LookStudioError.self) {
                _ = try Image(pixels: null ? nil : raw.baseAddress! + offset, width: width, height: height,
                              channels: channels, bits: bits, rowBytes: rowBytes, icc: icc)
            }
        }
    }

    @Test func sizesBelowOnePixelAreRefused() {
        #expect(refusal(width: 0)?.message.contains("width 0 and height 4") == true)
        #expect(refusal(height: -3)?.message.contains("at least 1 pixel") == true)
    }

    @Test func aStrideShorterThanARowIsRefusedWithTheRowsLength() {
        #expect(refusal(rowBytes: 11)?.message
                == "image: row stride 11 bytes is smaller than one row of 4 pixels × 3 channels × 1 byte = 12 bytes")
    }

    @Test func channelsBitsNullAndAlignmentAreChecked() {
        #expect(refusal(channels: 2)?.message.contains("use 3 (RGB) or 4 (RGBA)") == true)
        #expect(refusal(bits: 12)?.message.contains("use 8 or 16") == true)
        #expect(refusal(null: true)?.message.contains("NULL") == true)
        #expect(refusal(bits: 16, rowBytes: 24, offset: 1)?.message.contains("multiples of 2") == true)
    }

    @Test func sizesThatOverflowTheAddressSpaceAreRefused() {
        #expect(refusal(width: Int.max / 2, rowBytes: Int.max)?.message.contains("does not fit") == true)
        #expect(refusal(height: Int.max, rowBytes: 1 << 40)?.message.contains("do not fit") == true)
    }

    @Test func aDamagedICCProfileIsRefused() {
        let error = refusal(icc: [UInt8](repeating: 1, count: 200))
        #expect(error?.kind == .invalidArgument)
        #expect(error?.message.contains("ICC") == true)
    }
}
