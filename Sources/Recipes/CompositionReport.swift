import Foundation
import LookCore
import PluginHost

/// What `compose --explain` prints: how each step resolved, and how far the composed cube is from the exact chain.
public struct CompositionReport: Sendable, Equatable, Codable {
    /// One recipe step and what it became.
    public struct Step: Sendable, Equatable, Codable {
        /// 1-based position in the recipe.
        public var index: Int
        /// `adjust`, `look` or `lut`.
        public var kind: String
        /// The adjustment id, look reference or LUT file as written.
        public var reference: String
        /// Percent.
        public var strength: Double
        /// Parameter values passed to the plugin, by name, as a recipe writes them (adjustments only).
        public var parameters: [String: ParameterSetting]?
        /// Plugin file, name and version (adjustments only).
        public var pluginPath: String?
        public var pluginName: String?
        public var pluginVersion: String?
        /// Look GUID and name (looks only).
        public var lookGUID: String?
        public var lookName: String?
        /// Resolved path and format (LUT files only).
        public var path: String?
        public var format: String?
        /// Entries per axis of the look's or LUT's cube.
        public var cubeSize: Int?
        /// True when the step changes nothing (strength 0, identity parameters or cube) and is left out.
        public var skipped: Bool

        enum CodingKeys: String, CodingKey {
            case index, kind, reference, strength, parameters, path, format, skipped
            case pluginPath = "plugin_path", pluginName = "plugin_name", pluginVersion = "plugin_version"
            case lookGUID = "look_guid", lookName = "look_name", cubeSize = "cube_size"
        }
    }

    /// Distance between the composed cube of one size and the exact chain, over the probe colours.
    public struct SizeError: Sendable, Equatable, Codable {
        /// Entries per axis.
        public var size: Int
        /// Largest difference of any channel, in 8-bit code values (0…255 scale).
        public var maxCodeValues: Double
        /// Mean absolute difference over every channel of every probe, in 8-bit code values.
        public var meanCodeValues: Double
        /// True for the size the recipe is composed at.
        public var chosen: Bool

        enum CodingKeys: String, CodingKey {
            case size, chosen
            case maxCodeValues = "max_code_values", meanCodeValues = "mean_code_values"
        }
    }

    /// The recipe's name.
    public var name: String?
    /// The output size.
    public var size: Int
    /// Every step, in order.
    public var steps: [Step]
    /// How many probe colours the errors were measured on.
    public var probeCount: Int
    /// Error at the chosen size and the canonical sizes, smallest size first.
    public var errors: [SizeError]

    enum CodingKeys: String, CodingKey {
        case name, size, steps, errors
        case probeCount = "probe_count"
    }

    /// The report for people.
    public var text: String {
        var lines = ["recipe \(name.map { "\"\($0)\"" } ?? "(unnamed)"): \(steps.count) step\(steps.count == 1 ? "" : "s")"]
        for step in steps {
            var line = String(format: "  %2d. %@ %@", step.index, step.kind, step.reference)
            if step.strength != 100 { line += " at \(TextNumber.format(step.strength))%" }
            if let parameters = step.parameters, !parameters.isEmpty {
                line += " (" + parameters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    .joined(separator: ", ") + ")"
            }
            var target: [String] = []
            if let path = step.pluginPath {
                target.append("\((path as NSString).lastPathComponent) (\(step.pluginName ?? "?") "
                    + "\(step.pluginVersion ?? "?"))")
            }
            if let guid = step.lookGUID { target.append("look \(guid) \"\(step.lookName ?? "")\"") }
            if let path = step.path { target.append("\(path) (\(step.format ?? "?"))") }
            if let n = step.cubeSize { target.append("\(n)³") }
            if !target.isEmpty { line += " → " + target.joined(separator: ", ") }
            if step.skipped { line += " — changes nothing, skipped" }
            lines.append(line)
        }
        let active = steps.filter { !$0.skipped }.count
        lines.append("the chain of \(active) active step\(active == 1 ? "" : "s") became one \(size)³ cube "
            + "(one lookup per pixel)")
        lines.append("composition error vs the chain evaluated step by step in Float, "
            + "\(probeCount) probe colours, 8-bit code values:")
        lines.append("  size     max    mean")
        for e in errors {
            lines.append(String(format: "  %4d  %6.3f  %6.3f%@", e.size, e.maxCodeValues, e.meanCodeValues,
                                e.chosen ? "   ← chosen" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// A fixed, evenly spread set of colours (the R3 low-discrepancy sequence), the same on every run and machine.
    ///
    /// Additive recurrence with the plastic number's powers: fills the cube more evenly than random points,
    /// and rarely lands on grid points, so it measures interpolation, not just the exact grid entries.
    public static func probeColors(count: Int = 10_000) -> [SIMD3<Float>] {
        let phi = 1.220_744_084_605_759_5
        let alpha = SIMD3(1 / phi, 1 / (phi * phi), 1 / (phi * phi * phi))
        return (0..<count).map { k in
            let v = SIMD3(0.5, 0.5, 0.5) + Double(k) * alpha
            let f = v - v.rounded(.down)
            return SIMD3(Float(f.x), Float(f.y), Float(f.z))
        }
    }
}

extension Composer {
    /// Resolves and measures a recipe: what each step became, and the error of the composed cube at `size` and at
    /// the canonical sizes against the exact chain over ``CompositionReport/probeColors(count:)``.
    public func explain(_ recipe: Recipe, size: Int? = nil) throws -> CompositionReport {
        let n = try Self.outputSize(recipe, size: size)
        try budget.checkWork(steps: recipe.steps.count, size: n, recipe: recipe.fileName)
        let steps = try resolve(recipe)
        let probes = CompositionReport.probeColors()
        var exact = probes
        try Self.evaluate(steps, colors: &exact)
        var errors: [CompositionReport.SizeError] = []
        for candidate in Set(Self.canonicalSizes + [n]).sorted() {
            let sampler = CubeSampler(try Self.compose(steps, size: candidate, budget: budget,
                                                       recipe: recipe.fileName))
            var maxDiff: Float = 0
            var sum = 0.0
            for (p, e) in zip(probes, exact) {
                let signed = sampler.sample(p, interpolation: .tetrahedral) - e
                let d = SIMD3(abs(signed.x), abs(signed.y), abs(signed.z))
                maxDiff = max(maxDiff, d.max())
                sum += Double(d.x) + Double(d.y) + Double(d.z)
            }
            errors.append(.init(size: candidate, maxCodeValues: Double(maxDiff) * 255,
                                meanCodeValues: sum / Double(3 * probes.count) * 255, chosen: candidate == n))
        }
        return CompositionReport(name: recipe.name, size: n, steps: steps.map(Self.reportStep),
                                 probeCount: probes.count, errors: errors)
    }

    private static func reportStep(_ resolved: ResolvedStep) -> CompositionReport.Step {
        var out = CompositionReport.Step(index: resolved.index, kind: "", reference: "",
                                         strength: resolved.step.strength, skipped: resolved.isNoOp)
        switch resolved.action {
        case .adjustment(let adjustment, let values):
            out.kind = "adjust"
            out.reference = adjustment.id
            out.parameters = adjustment.settings(for: values)
            out.pluginPath = adjustment.pluginPath
            out.pluginName = adjustment.pluginName
            out.pluginVersion = adjustment.pluginVersion
        case .look(let look):
            out.kind = "look"
            if case .look(let reference) = resolved.step.operation { out.reference = reference }
            out.lookGUID = look.guid
            out.lookName = look.name
            out.cubeSize = look.cube.size
        case .lut(let path, let dialect, let cube):
            out.kind = "lut"
            if case .lut(let file) = resolved.step.operation { out.reference = file }
            out.path = path
            out.format = dialect
            out.cubeSize = cube.size
        }
        return out
    }
}
