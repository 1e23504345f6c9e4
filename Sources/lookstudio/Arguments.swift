import ArgumentParser
import Foundation
import ImageIO
import LookCore
import LookFormats
import Rendering

extension Interpolation: ExpressibleByArgument {}
extension CubeLayout: ExpressibleByArgument {}
extension TIFFCompression: ExpressibleByArgument {}
extension JPEGSubsampling: ExpressibleByArgument {}

/// `--layout auto|tiled|strip|hald` for reading PNG cubes.
enum LayoutChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, tiled, strip, hald

    /// The forced layout, or nil to detect it from the pixels.
    var layout: CubeLayout? { CubeLayout(rawValue: rawValue) }

    /// The choice of a `--layout` option read as text (whose help names the layouts itself); refused when it
    /// names none.
    init(option text: String) throws {
        guard let choice = LayoutChoice(rawValue: text) else {
            throw ValidationError("--layout must be auto, tiled, strip or hald")
        }
        self = choice
    }
}

/// Writes a line to standard error (warnings, progress), keeping standard output for results. Control characters
/// are shown escaped: messages quote file contents (a `.cube` line, a name) that may carry ESC or NUL.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((MessageText.quote(message, keepNewlines: true) + "\n").utf8))
}

/// Prints each warning as `warning: FILE: …` on standard error.
func report(_ warnings: [FormatWarning], file: String) {
    for warning in warnings { printError("warning: \(file): \(warning)") }
}

/// Encodes a value as pretty, key-sorted JSON (the documented `--json` shape); `keys` converts the property names.
func jsonString<T: Encodable>(_ value: T, keys: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = keys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Throws unless `value` is a cube size the library makes (2…256), naming the option that gave it.
func checkCubeSize(_ value: Int, option: String = "--size") throws {
    guard ColorCube.sizeRange.contains(value) else {
        throw ValidationError(TextNumber.outOfRange(option, value, ColorCube.sizeRange) + " entries per axis")
    }
}

/// Throws unless `value` is a gallery image size (long side in pixels) the builder makes, naming the option.
func checkGallerySize(_ value: Int, option: String = "--size") throws {
    guard GalleryBuilder.sizeRange.contains(value) else {
        throw ValidationError(TextNumber.outOfRange(option, value, GalleryBuilder.sizeRange) + " pixels")
    }
}

/// Parses a strength given in percent (0…200) into the 0…2 factor the cube model uses.
func strengthFactor(_ percent: Double) throws -> Float {
    guard (0...200).contains(percent) else {
        throw ValidationError(TextNumber.outOfRange("--strength", percent, 0...200) + " (100 is the look as authored)")
    }
    return Float(percent / 100)
}

/// This process's peak resident memory (VmHWM) in kB, 0 where /proc is unavailable.
///
/// Unlike `getrusage`'s `ru_maxrss`, VmHWM belongs to the address space created at exec, so a child started by a
/// large parent (such as `bench`) reports its own peak, not its parent's.
func peakMemoryKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// `on` or `off`, for switches given as options.
enum OnOff: String, ExpressibleByArgument, Sendable {
    case on, off

    var isOn: Bool { self == .on }
}

/// `--bits` for a LUT written to `output`, checked against what its format stores: PNG samples of 8 or 16 bits,
/// `.3dl` output of 10, 12 or 16 bits; other formats take none. A usage error (exit 64) names the format's values.
func checkLUTBits(_ bits: Int?, output: String) throws {
    guard let bits else { return }
    switch (output as NSString).pathExtension.lowercased() {
    case "png":
        guard bits == 8 || bits == 16 else { throw ValidationError("--bits \(bits): a PNG stores 8 or 16 bits") }
    case "3dl":
        guard [10, 12, 16].contains(bits) else {
            throw ValidationError("--bits \(bits): a .3dl stores 10-, 12- or 16-bit output")
        }
    default:
        throw ValidationError("--bits applies to .png and .3dl outputs, not \((output as NSString).lastPathComponent)")
    }
}

/// A failure the command line words itself: a library error with the option that answers it (exit 1, not a usage
/// error).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
