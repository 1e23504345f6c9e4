import Foundation
import LookCore
import PluginHost
import Recipes

/// The measurements behind `lookstudio bench compose`.
public enum ComposeBenchmark {
    /// Ten steps: every plugin, two looks, strengths below and above 100.
    static let recipeYAML = RecipeExamples.tenSteps(name: "Bench Ten Steps")

    /// The two looks the recipe names: a warm 33³ grade and a cross-processed 17³ one.
    static func looks() throws -> [String: ColorCube] {
        let warm = try ColorCube(size: 33) { c in
            SIMD3(min(1, 0.04 + 0.98 * c.x), 0.02 + 0.95 * c.y, 0.9 * c.z * c.z + 0.05 * c.z)
        }
        let cross = try ColorCube(size: 17) { c in
            let s = c * c * (3 - 2 * c)
            return SIMD3(0.85 * s.x + 0.1 * c.z + 0.03, 0.92 * c.y * c.y + 0.06, 0.7 * c.z + 0.2 * (1 - c.x) * c.z + 0.05)
        }
        return ["warm": warm, "cross": cross]
    }

    /// Composes the ten-step recipe at `size` and compares applying it composed vs step by step on an image of
    /// `megapixels`; returns the report.
    public static func run(registry: PluginRegistry, size: Int, megapixels: Double, repeats: Int) throws -> String {
        let looks = try looks()
        let composer = Composer(registry: registry) { name in
            guard let cube = looks[name] else { throw BenchError.failed("no look \(name)") }
            return ResolvedLook(guid: name, name: name, cube: cube)
        }
        let recipe = try Recipe.parse(recipeYAML, fileName: "bench.yaml")
        let steps = try composer.resolve(recipe)
        var lines = ["compose: \(recipe.steps.count)-step recipe at \(size)³ (1 core, best of \(repeats))"]
        var best = Double.infinity
        var cube = try ColorCube.identity(size: 2)
        for _ in 0..<repeats {
            let start = ApplyBenchmark.threadCPUSeconds()
            cube = try Composer.compose(steps, size: size)
            best = min(best, ApplyBenchmark.threadCPUSeconds() - start)
        }
        lines.append(String(format: "  whole chain       %8.1f ms", best * 1000))
        for step in steps where !step.isNoOp {
            var grid = try ColorCube.identity(size: size).values
            let start = ApplyBenchmark.threadCPUSeconds()
            try grid.withUnsafeMutableBufferPointer { try Composer.run([step], on: $0) }
            lines.append(String(format: "    step %2d %@ %6.1f ms", step.index, step.step.id.padding(toLength: 18, withPad: " ", startingAt: 0),
                                (ApplyBenchmark.threadCPUSeconds() - start) * 1000))
        }
        guard megapixels > 0 else { return lines.joined(separator: "\n") }

        let width = Int((megapixels * 1_000_000 * 1.5).squareRoot())
        let height = Int(megapixels * 1_000_000) / width
        let source = ApplyBenchmark.photoLikeImage(width: width, height: height)
        lines.append(String(format: "apply to %d×%d 8-bit RGB (%.1f MP), 1 thread", width, height,
                            Double(width * height) / 1e6))
        var work = source
        var start = ApplyBenchmark.threadCPUSeconds()
        try work.withUnsafeMutableBufferPointer {
            try CubeApplier(cube: cube).apply(to: $0, channels: 3, threads: 1)
        }
        let composed = ApplyBenchmark.threadCPUSeconds() - start
        lines.append(String(format: "  composed cube, 1 pass       %8.3f s", composed))

        let active = steps.filter { !$0.isNoOp }
        let stepCubes = try active.map { try Composer.compose([$0], size: size) }
        work = source
        start = ApplyBenchmark.threadCPUSeconds()
        for stepCube in stepCubes {
            try work.withUnsafeMutableBufferPointer {
                try CubeApplier(cube: stepCube).apply(to: $0, channels: 3, threads: 1)
            }
        }
        let perStepLUT = ApplyBenchmark.threadCPUSeconds() - start
        lines.append(String(format: "  one cube per step, %2d passes %8.3f s  (%.1f× the composed cost)",
                            stepCubes.count, perStepLUT, perStepLUT / composed))

        var floats = source.map { Float($0) / 255 }
        start = ApplyBenchmark.threadCPUSeconds()
        try floats.withUnsafeMutableBufferPointer { try Composer.run(active, on: $0) }
        let exact = ApplyBenchmark.threadCPUSeconds() - start
        lines.append(String(format: "  exact Float, %2d passes       %8.3f s  (%.1f× the composed cost)",
                            active.count, exact, exact / composed))
        return lines.joined(separator: "\n")
    }
}
