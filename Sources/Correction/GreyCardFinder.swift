import Foundation
import ImageIO
import LookCore

/// Finds a grey card on a photo that shows one: the largest uniform region whose colour a grey surface could take
/// under some light (near the locus of black-body and daylight illuminants in log-chroma).
public enum GreyCardFinder {
    /// The analysed copy is cut into tiles of about this many per long side.
    static let tilesPerLongSide = 64
    /// A tile is uniform when its luminance and each channel vary by less than this (standard deviation / mean):
    /// a card under JPEG noise stays well below it, texture and edges do not.
    static let uniformity = 0.06
    /// Neighbouring tiles belong to one surface when their log-chromaticities are this close and their luminances
    /// within this ratio.
    static let joinChroma = 0.06, joinLuminance = 0.15
    /// A card covers at least this share of the frame: smaller uniform patches are as likely a wall's corner.
    static let minimumShare = 0.01
    /// Log-chroma distance from the illuminant locus a grey under some light may lie at: the simulator's strongest
    /// green or magenta tint (0.3 on both log ratios) puts a grey 0.42 off it.
    static let locusDistance = 0.5

    /// The card found, as the pixels (indices into `preview`) of its region, its centroid and equivalent radius in
    /// preview pixels; throws when no region qualifies or the best one is clipped.
    public static func find(in preview: PixelBuffer, sourceWidth: Int, sourceHeight: Int, what: String)
        throws(CorrectionError) -> (point: NeutralPoint, measured: SIMD3<Double>) {
        guard case .eight(let bytes) = preview.samples, preview.channels >= 3, preview.width > 0, preview.height > 0
        else { throw .neutral("\(what): no pixels to look for a grey card in") }
        let w = preview.width, h = preview.height, c = preview.channels
        let size = max(2, max(w, h) / tilesPerLongSide)
        let tw = w / size, th = h / size
        guard tw > 0, th > 0 else { throw .neutral("\(what) is too small to look for a grey card in") }
        let linear = (0..<256).map { ColorScience.linear(fromSRGB: Double($0) / 255) }
        var tiles = [Tile]()
        tiles.reserveCapacity(tw * th)
        for ty in 0..<th {
            for tx in 0..<tw {
                var sum = SIMD3<Double>(), squares = SIMD3<Double>(), clipped = 0
                for y in (ty * size)..<((ty + 1) * size) {
                    for x in (tx * size)..<((tx + 1) * size) {
                        let i = (y * w + x) * c
                        if max(bytes[i], bytes[i + 1], bytes[i + 2]) >= NeutralMeasure.clippedCode { clipped += 1 }
                        let p = SIMD3(linear[Int(bytes[i])], linear[Int(bytes[i + 1])], linear[Int(bytes[i + 2])])
                        sum += p
                        squares += p * p
                    }
                }
                let n = Double(size * size)
                let mean = sum / n
                let deviation = (squares / n - mean * mean).replacing(with: 0, where: squares / n .< mean * mean)
                let spread = (deviation.squareRoot() / mean.replacing(with: 1e-6, where: mean .< 1e-6)).max()
                let lit = ColorScience.luma(mean) >= NeutralMeasure.darkLimit
                tiles.append(Tile(mean: mean, uniform: lit && spread < uniformity, clipped: clipped * 2 > size * size,
                                  chroma: LogChroma(mean)))
            }
        }
        let regions = connectedRegions(tiles, columns: tw, rows: th)
        guard let best = regions.max(by: { $0.count < $1.count }),
              Double(best.count) >= minimumShare * Double(tiles.count) else {
            throw .neutral("\(what): no grey card found (no uniform region a grey surface could be, covering 1 % "
                           + "of the frame or more); point at it with \(what)@X,Y,RADIUS")
        }
        let sx = Double(sourceWidth) / Double(w), sy = Double(sourceHeight) / Double(h)
        let cx = best.map { Double(($0 % tw) * size) + Double(size) / 2 }.reduce(0, +) / Double(best.count)
        let cy = best.map { Double(($0 / tw) * size) + Double(size) / 2 }.reduce(0, +) / Double(best.count)
        let area = Double(best.count * size * size) * sx * sy
        let point = NeutralPoint(x: Int(cx * sx), y: Int(cy * sy), radius: max(1, Int((area / .pi).squareRoot())))
        if tiles[best[0]].clipped {
            throw .neutral("\(what): the largest uniform near-neutral region, around \(point.x),\(point.y), is "
                           + "clipped (white in a channel): its colour is the sensor's limit, not the card's; shoot "
                           + "the card darker, or point at it with \(what)@X,Y,RADIUS")
        }
        var indices = [Int]()
        for k in best {
            let (tx, ty) = (k % tw, k / tw)
            for y in (ty * size)..<((ty + 1) * size) {
                for x in (tx * size)..<((tx + 1) * size) { indices.append(y * w + x) }
            }
        }
        let measured = try NeutralMeasure.mean(of: indices, in: preview, what: "\(what): the card found around "
                                               + "\(point.x),\(point.y)")
        return (point, measured)
    }

    /// A preview tile: its mean linear colour, and whether it is uniform, clipped, and its log-chroma.
    private struct Tile {
        var mean: SIMD3<Double>
        var uniform: Bool
        var clipped: Bool
        var chroma: LogChroma
    }

    /// Connected regions of grey-able tiles whose colour and level agree with their neighbour's, as tile indices.
    private static func connectedRegions(_ tiles: [Tile], columns tw: Int, rows th: Int) -> [[Int]] {
        func grey(_ t: Tile) -> Bool { t.clipped || (t.uniform && distanceToLocus(t.chroma) <= locusDistance) }
        var label = [Int](repeating: -1, count: tiles.count)
        var regions = [[Int]]()
        for start in tiles.indices where label[start] < 0 && grey(tiles[start]) {
            var members = [start], queue = [start]
            label[start] = regions.count
            while let k = queue.popLast() {
                let (kx, ky) = (k % tw, k / tw)
                for (nx, ny) in [(kx - 1, ky), (kx + 1, ky), (kx, ky - 1), (kx, ky + 1)]
                where nx >= 0 && ny >= 0 && nx < tw && ny < th {
                    let n = ny * tw + nx
                    guard label[n] < 0, grey(tiles[n]), tiles[n].clipped == tiles[k].clipped else { continue }
                    let a = ColorScience.luma(tiles[n].mean), b = ColorScience.luma(tiles[k].mean)
                    guard tiles[k].clipped
                        || (tiles[n].chroma.distance(to: tiles[k].chroma) < joinChroma
                            && abs(a - b) <= joinLuminance * max(a, b)) else { continue }
                    label[n] = regions.count
                    members.append(n)
                    queue.append(n)
                }
            }
            regions.append(members)
        }
        return regions
    }

    /// The illuminant locus in log-chroma: black-body light 2000…4000 K and the CIE daylight locus 4000…15000 K, each as
    /// a camera balanced for D65 records a grey under it (Kim et al.'s cubic fit of the Planckian locus; CIE 015 for
    /// daylight), every 250 K.
    static let locus: [LogChroma] = stride(from: 2000.0, through: 15000, by: 250).map { t in
        let x: Double, y: Double
        if t < 4000 {
            x = -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            y = t < 2222 ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
                : -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            x = t <= 7000 ? -4.6070e9 / (t * t * t) + 2.9678e6 / (t * t) + 0.09911e3 / t + 0.244063
                : -2.0064e9 / (t * t * t) + 1.9018e6 / (t * t) + 0.24748e3 / t + 0.237040
            y = -3.000 * x * x + 2.870 * x - 0.275
        }
        let rgb = ColorScience.xyzToSRGB.apply(SIMD3(x / y, 1, (1 - x - y) / y))
        return LogChroma(rgb)
    }

    /// Distance from `c` to the nearest segment of the locus.
    public static func distanceToLocus(_ c: LogChroma) -> Double {
        var best = Double.infinity
        for (a, b) in zip(locus, locus.dropFirst()) {
            let ab = SIMD2(b.red - a.red, b.blue - a.blue), ac = SIMD2(c.red - a.red, c.blue - a.blue)
            let t = max(0, min(1, (ab * ac).sum() / max(1e-12, (ab * ab).sum())))
            let d = ac - t * ab
            best = min(best, (d * d).sum().squareRoot())
        }
        return best
    }
}
