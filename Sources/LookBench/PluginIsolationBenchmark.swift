import Foundation
import LookCore
import Recipes
import PluginHost

/// What running plugins in a plugin-host child costs `compose`: the ten-step recipe of ``ComposeBenchmark``
/// composed with in-process plugins and with the same plugins out of process, in wall time.
public enum PluginIsolationBenchmark {
    /// Starts a plugin host from `configuration` over `searchPaths` (timing the start and load), then composes the
    /// recipe at each of `sizes` both ways; returns the report.
    public static func run(searchPaths: [String], configuration: PluginHostConfiguration, sizes: [Int] = [33, 64],
                           repeats: Int) throws -> String {
        let local = PluginRegistry.load(searchPaths: searchPaths)
        let started = DispatchTime.now().uptimeNanoseconds
        let isolated = PluginRegistry.load(searchPaths: searchPaths, isolation: .outOfProcess(configuration))
        let startup = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        if let refusal = isolated.refusals.first { throw BenchError.failed("plugin host: \(refusal)") }
        let looks = try ComposeBenchmark.looks()
        let recipe = try Recipe.parse(ComposeBenchmark.recipeYAML, fileName: "bench.yaml")
        func steps(_ registry: PluginRegistry) throws -> [ResolvedStep] {
            try Composer(registry: registry) { name in
                guard let cube = looks[name] else { throw BenchError.failed("no look \(name)") }
                return ResolvedLook(guid: name, name: name, cube: cube)
            }.resolve(recipe)
        }
        let inProcess = try steps(local), outOfProcess = try steps(isolated)
        let adjustments = inProcess.filter { if case .adjustment = $0.action { !$0.isNoOp } else { false } }.count
        var lines = [
            "plugin isolation: the \(recipe.steps.count)-step recipe (\(adjustments) plugin steps), wall time, best of "
                + "\(repeats)",
            String(format: "  plugin host start + load (once per run)   %7.1f ms", startup),
        ]
        for size in sizes {
            let local = try best(repeats) { _ = try Composer.compose(inProcess, size: size) }
            let remote = try best(repeats) { _ = try Composer.compose(outOfProcess, size: size) }
            let same = try Composer.compose(inProcess, size: size) == Composer.compose(outOfProcess, size: size)
            lines.append(String(
                format: "  %3d³  in process %7.1f ms   plugin host %7.1f ms   (+%.2f ms per plugin step)%@",
                size, local * 1000, remote * 1000, (remote - local) * 1000 / Double(max(1, adjustments)),
                same ? "" : "  RESULTS DIFFER"))
        }
        return lines.joined(separator: "\n")
    }

    /// The fastest of `repeats` wall-clock runs of `body`, in seconds.
    private static func best(_ repeats: Int, _ body: () throws -> Void) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<max(1, repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }
}
