import LookCore

/// A composed cube as bytes for the page: red fastest, RGB triples, as float32 (little-endian) or 8/16-bit codes.
public enum CubeBytes {
    /// `format`: `f32`, `u8` or `u16`.
    public static func encode(_ cube: ColorCube, format: String) throws -> [UInt8] {
        let values = cube.values
        switch format {
        case "f32":
            // Float's own bytes: every platform Swift runs the studio on is little-endian.
            return values.withUnsafeBytes { Array($0) }
        case "u8":
            return values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        case "u16":
            var out = [UInt8](repeating: 0, count: values.count * 2)
            for (i, v) in values.enumerated() {
                let code = UInt16((min(max(v, 0), 1) * 65535).rounded())
                out[2 * i] = UInt8(code & 0xFF)
                out[2 * i + 1] = UInt8(code >> 8)
            }
            return out
        default:
            throw WorkflowError.badFormat(format)
        }
    }
}
