import Foundation

/// FFmpeg's `lut3d` filter: a `.cube` file plus the command line that applies it.
enum FFmpegTarget {
    static let target = ExportTarget(
        id: "ffmpeg", format: "FFmpeg lut3d filter .cube", fileExtension: "cube", defaultSize: 33, sizes: 2...256,
        valueRange: "float 0…1", cannotCarry: "strength, a working space other than sRGB",
        write: { look, size, path in
            var result = try CubeTargets.write(look, size: size, to: path, target: "ffmpeg")
            result.notes.append(command(lut: path, input: "INPUT", output: "OUTPUT"))
            return result
        })

    /// The command that applies the `.cube` at `lut` to a video or image, tetrahedral like LookStudio.
    ///
    /// `format=rgb24` keeps FFmpeg from converting to YUV before the LUT (a `.cube` is an RGB-to-RGB table).
    static func command(lut: String, input: String, output: String) -> String {
        "ffmpeg -i \(quoted(input)) -vf \"format=rgb24,lut3d=file=\(filterEscaped(lut)):interp=tetrahedral\" "
            + quoted(output)
    }

    static func quoted(_ s: String) -> String {
        if s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// FFmpeg's filter-graph escaping for a path inside `file=`: `\`, `'`, `:` and `,` need a backslash.
    static func filterEscaped(_ path: String) -> String {
        var out = ""
        for c in path {
            if "\\':,;[]=".contains(c) { out.append("\\\\") }
            out.append(c)
        }
        return out
    }
}
