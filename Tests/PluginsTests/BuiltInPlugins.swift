import PluginHost
import Testing

/// The built-in plugins as `swift build` leaves them next to the test binary, and grids of test colours.
enum BuiltInPlugins {
    /// One registry for the whole run; loading is cheap but there is no reason to repeat it.
    static let registry: PluginRegistry = {
        PluginRegistry.load(searchPaths: PluginSearchPath.executableDirectory().map { [$0] } ?? [])
    }()

    static func adjustment(_ id: String) throws -> Adjustment {
        try #require(registry.adjustment(id: id), "built-in adjustment \(id) is loaded")
    }

    /// `n³` colours spanning 0…1 on each axis, interleaved RGB, red fastest.
    static func grid(_ n: Int) -> [Float] {
        var values: [Float] = []
        values.reserveCapacity(3 * n * n * n)
        let step = 1 / Float(n - 1)
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    values += [Float(r) * step, Float(g) * step, Float(b) * step]
                }
            }
        }
        return values
    }

    /// The adjustment applied to `input` with `parameters` given by name.
    static func apply(_ adjustment: Adjustment, _ input: [Float], _ parameters: [String: ParameterSetting]) throws
        -> [Float]
    {
        try apply(adjustment, input, values: adjustment.resolveParameters(parameters))
    }

    static func apply(_ adjustment: Adjustment, _ input: [Float], values: [ParameterValue]) throws -> [Float] {
        var output = [Float](repeating: .nan, count: input.count)
        try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { try adjustment.apply(source, $0, parameters: values) }
        }
        return output
    }

    /// A grey ramp of `count` steps from black to white, and ramps of each channel with the others at 0.3.
    static func ramps(_ count: Int = 256) -> [[Float]] {
        let steps = (0..<count).map { Float($0) / Float(count - 1) }
        return [
            steps.flatMap { [$0, $0, $0] },
            steps.flatMap { [$0, 0.3, 0.3] },
            steps.flatMap { [0.3, $0, 0.3] },
            steps.flatMap { [0.3, 0.3, $0] },
        ]
    }

    /// True when every channel of `output` never decreases along the ramp (within float rounding).
    static func isMonotonic(_ output: [Float]) -> Bool {
        let pixels = output.count / 3
        for pixel in 1..<pixels {
            for channel in 0..<3 where output[3 * pixel + channel] < output[3 * (pixel - 1) + channel] - 1e-6 {
                return false
            }
        }
        return true
    }

    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }
}
