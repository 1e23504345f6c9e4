import Correction
import Foundation
import LookCore
import PluginHost

/// The studio's neutral eyedropper: the white balance steps (`wb.temperature`, `wb.tint`) that make a region the user
/// says is neutral come out grey, found through the White Balance plugin itself so the recipe renders exactly that.
public struct StudioNeutral: Sendable, Equatable, Codable {
    /// The region, in pixels of the photo as displayed (1 % of its long side unless a radius was given).
    public var x: Int, y: Int, radius: Int
    /// The region's mean colour, linear sRGB.
    public var measured: [Double]
    /// `wb.temperature`'s shift, kelvin.
    public var shift: Double
    /// `wb.tint`'s amount.
    public var tint: Double
    /// The region after the two steps, encoded sRGB 0…1 (grey when the cast was within the steps' ranges).
    public var balanced: [Double]
    /// Why the region could not be made grey (a cast beyond a step's range), or nil.
    public var note: String?
}

extension StudioSession {
    /// The temperature and tint that make the region around (`u`, `v`) — fractions of the photo's width and height
    /// as displayed — grey, read as `correct --neutral` reads a point (refused when clipped or too dark).
    public func neutralBalance(photo id: Int, u: Double, v: Double, radius: Int? = nil) throws -> StudioNeutral {
        guard (0...1).contains(u), (0...1).contains(v) else {
            throw WorkflowError.badRequest("the neutral point \(u),\(v) is outside the photo (0…1 across and down)")
        }
        let analysis = try analysis(photo: id)
        let (w, h) = (analysis.statistics.sourceWidth, analysis.statistics.sourceHeight)
        let point = NeutralPoint(x: min(w - 1, Int(u * Double(w))), y: min(h - 1, Int(v * Double(h))), radius: radius)
        let measured: SIMD3<Double>
        do {
            measured = try NeutralMeasure.measure(point, in: analysis.preview, sourceWidth: w, sourceHeight: h,
                                                  what: "the neutral point")
        } catch {
            throw WorkflowError.neutralArgument(error.description)
        }
        guard let temperature = registry.adjustment(id: "wb.temperature"),
              let tint = registry.adjustment(id: "wb.tint") else {
            throw WorkflowError.neutralArgument("the neutral eyedropper needs the White Balance plugin "
                                                + "(wb.temperature, wb.tint), which no plugin folder offers")
        }
        // Gains act on linear light, so the colour is scaled to mid-grey first: the plugin's clamp at 1 never
        // touches it and the ratios, which are all that white balance changes, are the region's own.
        let start = measured / max(measured.max(), 1e-9) * 0.25
        let encoded = SIMD3(start.indices.map { Float(ColorScience.srgb(fromLinear: start[$0])) })
        var balancer = NeutralBalancer(temperature: temperature, tint: tint, colour: encoded)
        let (shift, amount) = try balancer.solve()
        let out = try balancer.balanced(shift: shift, tint: amount)
        return StudioNeutral(x: point.x, y: point.y, radius: point.radius(width: w, height: h),
                             measured: [measured.x, measured.y, measured.z], shift: shift, tint: amount,
                             balanced: [Double(out.x), Double(out.y), Double(out.z)], note: balancer.note)
    }
}

/// Finds the `wb.temperature` shift that makes red and blue meet, then the `wb.tint` amount that brings green to
/// them, by bisection on the plugin's own output: each is monotonic in its parameter (a warmer correction raises red
/// against blue; more tint lowers green).
struct NeutralBalancer {
    let temperature: Adjustment
    let tint: Adjustment
    let colour: SIMD3<Float>
    private(set) var note: String?

    init(temperature: Adjustment, tint: Adjustment, colour: SIMD3<Float>) {
        self.temperature = temperature
        self.tint = tint
        self.colour = colour
    }

    /// Shift and tint amount.
    mutating func solve() throws -> (shift: Double, tint: Double) {
        let shiftRange = try range(of: temperature)
        let (shift, shiftNote) = try bisect(shiftRange, what: "temperature shift", unit: " K") { s in
            let c = try run(temperature, s, on: colour)
            return Double(c.x) - Double(c.z)
        }
        let warmed = try run(temperature, shift, on: colour)
        let tintRange = try range(of: tint)
        let (amount, tintNote) = try bisect(tintRange, what: "tint", unit: "") { a in
            let c = try run(tint, a, on: warmed)
            return (Double(c.x) + Double(c.z)) / 2 - Double(c.y)
        }
        let notes = [shiftNote, tintNote].compactMap { $0 }
        note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        return (shift, amount)
    }

    /// The colour after both steps.
    func balanced(shift: Double, tint amount: Double) throws -> SIMD3<Float> {
        try run(tint, amount, on: try run(temperature, shift, on: colour))
    }

    private func range(of adjustment: Adjustment) throws -> ClosedRange<Double> {
        guard let p = adjustment.parameters.first else {
            throw WorkflowError.neutralArgument("\(adjustment.id) has no parameter to set")
        }
        return Double(p.min)...Double(p.max)
    }

    /// The root of an increasing `f` in `range` to 1/65536 of the range, or the end nearest it with a note.
    private func bisect(_ range: ClosedRange<Double>, what: String, unit: String,
                        _ f: (Double) throws -> Double) throws -> (Double, String?) {
        var lo = range.lowerBound, hi = range.upperBound
        let atLow = try f(lo), atHigh = try f(hi)
        if atLow >= 0 || atHigh <= 0 {
            let end = atLow >= 0 ? lo : hi
            return (end, "the cast needs a \(what) beyond \(Int(end))\(unit), the step's limit: the point is made "
                    + "as grey as the step allows")
        }
        for _ in 0..<16 {
            let mid = (lo + hi) / 2
            if try f(mid) < 0 { lo = mid } else { hi = mid }
        }
        return ((lo + hi) / 2, nil)
    }

    private func run(_ adjustment: Adjustment, _ value: Double, on rgb: SIMD3<Float>) throws -> SIMD3<Float> {
        let name = adjustment.parameters[0].name
        let parameters = try adjustment.resolveParameters([name: .number(value)])
        let input = [rgb.x, rgb.y, rgb.z]
        var output = [Float](repeating: 0, count: 3)
        try input.withUnsafeBufferPointer { i in
            try output.withUnsafeMutableBufferPointer { o in try adjustment.apply(i, o, parameters: parameters) }
        }
        return SIMD3(output[0], output[1], output[2])
    }
}
