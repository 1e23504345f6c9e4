import Foundation
import LookCore

/// Signs that a cube image was edited by pixel position (a blur, sharpening, noise) rather than by colour alone.
///
/// A colour adjustment maps each entry by its own colour, so the cube stays a function of colour: smooth along
/// every axis and blind to where an entry sits in the picture. A filter mixes or perturbs pixels by position.
/// Two tests, each against a control taken from the same cube so no threshold depends on a particular look:
/// - **Seams.** An entry at the end of a red run either touches the next run's opposite end in the picture (a seam)
///   or the image border. A colour edit treats both alike; a blur or sharpen moves only the seam entries, towards
///   or away from a very different colour. The curvature at the run's end is compared between seam and border
///   entries one lattice step apart (median), against the same comparison between two seam entries one step
///   further (upper quartile: colour edits change fastest near the range's ends, where strips' borders lie).
/// - **Roughness.** Along red, a colour edit's second differences vary smoothly (or are zero between the steps of a
///   posterise) and repeat from one green row to the next; independent noise makes them large everywhere,
///   alternating in sign (lag-1 correlation −2/3) and unrelated between rows (correlation 0).
/// The floor of 2 codes is 8-bit rounding: it moves a channel's second difference by at most 2 codes.
enum SpatialEditCheck {
    /// A warning saying what was seen, or nil for a cube that reads as a colour edit.
    static func warning(_ cube: ColorCube, layout: CubeLayout) -> String? {
        guard cube.size >= 5, let geometry = try? Geometry(cubeSize: cube.size, layout: layout) else { return nil }
        let findings = [seams(cube, geometry), roughness(cube)].compactMap { $0 }
        guard !findings.isEmpty else { return nil }
        return "the image looks edited by position, not only by colour: " + findings.joined(separator: "; ")
            + ". A filter (blur, sharpen, noise, vignette) changes each entry by where it sits in the picture, "
            + "which no look does; edit cube images with colour adjustments only"
    }

    static let floorCodes: Float = 2

    /// Seam entries' end curvature against their neighbours' at the border and, as the control, against the next
    /// seam entry one step further the same way (see the type's note); nil when they agree.
    static func seams(_ cube: ColorCube, _ geometry: Geometry) -> String? {
        guard let s = seamStatistic(cube, geometry), s.difference > max(floorCodes, 3 * s.control) else { return nil }
        return "entries that touch another tile in the picture bend \(rounded(s.difference)) codes differently at "
            + "the end of their red run from their neighbours at the image border (\(rounded(s.control)) between "
            + "two such neighbours both touching tiles), as a blur or sharpen that mixes pixels across tile borders "
            + "makes them"
    }

    /// Medians over seam–border pairs and their seam–seam controls, in codes at 8 bits.
    struct SeamStatistic {
        var difference: Float
        var control: Float
        var pairs: Int
    }

    static func seamStatistic(_ cube: ColorCube, _ geometry: Geometry) -> SeamStatistic? {
        let n = cube.size
        var column = [Int32](repeating: 0, count: n * n * n)
        for y in 0..<geometry.height {
            for x in 0..<geometry.width { column[geometry.entryIndex(x: x, y: y)] = Int32(x) }
        }
        var differences: [Float] = [], controls: [Float] = []
        for rightEnd in [true, false] {
            let r = rightEnd ? n - 1 : 0, step = rightEnd ? -1 : 1
            func entry(_ g: Int, _ b: Int) -> Int? { (0..<n).contains(g) && (0..<n).contains(b) ? r + n * (g + n * b) : nil }
            func isSeam(_ e: Int) -> Bool {
                let x = Int(column[e]) + (rightEnd ? 1 : -1)
                return x >= 0 && x < geometry.width
            }
            func curvature(_ e: Int) -> SIMD3<Float> {
                (value(cube, e) - 2 * value(cube, e + step) + value(cube, e + 2 * step)) * 255
            }
            for b in 0..<n {
                for g in 0..<n {
                    guard let border = entry(g, b), !isSeam(border) else { continue }
                    for (dg, db) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        guard let seam = entry(g + dg, b + db), isSeam(seam),
                              let further = entry(g + 2 * dg, b + 2 * db), isSeam(further) else { continue }
                        differences.append(largest(curvature(seam) - curvature(border)))
                        controls.append(largest(curvature(further) - curvature(seam)))
                    }
                }
            }
        }
        guard differences.count >= 4 else { return nil }
        return SeamStatistic(difference: median(differences), control: quantile(controls, 0.75),
                             pairs: differences.count)
    }

    /// Noise along red (see the type's note); nil for a smooth or stepped cube.
    static func roughness(_ cube: ColorCube) -> String? {
        guard let s = roughnessStatistic(cube), s.median > floorCodes, s.alongRed < -0.4, s.acrossRows < 0.2 else {
            return nil
        }
        return "neighbouring entries along red jump by a median \(rounded(s.median)) codes in alternating "
            + "directions (correlation \(rounded(s.alongRed))), unlike the next row's (\(rounded(s.acrossRows))), "
            + "as added noise makes them"
    }

    /// The median second difference along red per channel in codes, its correlation with the next one along red,
    /// and with the one at the same place in the next green row: a colour function's rounding repeats from row to
    /// row, noise does not.
    struct RoughnessStatistic {
        var median: Float
        var alongRed: Float
        var acrossRows: Float
    }

    static func roughnessStatistic(_ cube: ColorCube) -> RoughnessStatistic? {
        let n = cube.size
        func d(_ r: Int, _ row: Int) -> SIMD3<Float> {
            let e = r + n * row
            return (value(cube, e - 1) - 2 * value(cube, e) + value(cube, e + 1)) * 255
        }
        var magnitudes: [Float] = []
        var along: Double = 0, across: Double = 0, energy: Double = 0
        for row in 0..<(n * n) {
            for r in 1..<(n - 1) {
                let here = d(r, row)
                magnitudes += [abs(here.x), abs(here.y), abs(here.z)]
                energy += Double((here * here).sum())
                if r + 1 < n - 1 { along += Double((here * d(r + 1, row)).sum()) }
                if row % n + 1 < n { across += Double((here * d(r, row + 1)).sum()) }
            }
        }
        guard energy > 0 else { return nil }
        return RoughnessStatistic(median: median(magnitudes), alongRed: Float(along / energy),
                                  acrossRows: Float(across / energy))
    }

    @inline(__always)
    static func value(_ cube: ColorCube, _ e: Int) -> SIMD3<Float> {
        SIMD3(cube.values[3 * e], cube.values[3 * e + 1], cube.values[3 * e + 2])
    }

    static func median(_ values: [Float]) -> Float { quantile(values, 0.5) }

    static func quantile(_ values: [Float], _ q: Double) -> Float {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }

    static func rounded(_ v: Float) -> String { String(format: "%.1f", Double(v)) }
}

/// The largest channel's magnitude: 8-bit rounding bounds each channel, not their sum.
private func largest(_ v: SIMD3<Float>) -> Float { max(abs(v.x), abs(v.y), abs(v.z)) }
