import Foundation

extension ShootEvaluation.Report {
    /// The kinds of shoot, in the order the table shows them, with their heading.
    static let kinds = [("photos", "shoots of photos of one source unit"), ("crops", "shoots of crops of one photo")]

    /// Mean, p10 and worst recovery of each corrector over `rows` (auto-level: nil when it was not run).
    public static func summaries(_ rows: [ShootEvaluation.Row])
        -> (shoot: Summary, single: Summary, oracle: Summary, autoLevel: Summary?) {
        let levels = rows.compactMap(\.autoLevel)
        return (Summary(rows.map(\.shoot)), Summary(rows.map(\.single)), Summary(rows.map(\.oracle)),
                levels.isEmpty ? nil : Summary(levels))
    }

    /// Mean, 10th percentile and worst of a set of recoveries.
    public struct Summary: Sendable, Equatable {
        /// The figures (0 for an empty set).
        public var mean: Double, p10: Double, worst: Double

        init(_ values: [Double]) {
            let s = RealisticEvaluation.summary(values)
            mean = s.mean
            p10 = s.p10
            worst = s.worst
        }
    }

    /// The table `lookstudio bench correct --shoots` prints: per kind of shoot, per family and overall, mean
    /// recovery, p10 and worst of the shoot's correction, each photo's own, the oracle and `-auto-level`; how far
    /// the untouched shoots' photos moved; then the issue's acceptance figures.
    public func table() -> String {
        var lines = ["shoots of \(shootSize) (\(split) split, simulate.py): \(Set(rows.map(\.id)).count) faulted "
                     + "shoots (\(rows.count) photos), \(Set(untouched.map(\.id)).count) untouched "
                     + "(\(untouched.count) photos); recovery = 1 − ΔE00 after / ΔE00 before; auto-level: \(autoLevel)"]
        for (kind, heading) in Self.kinds where rows.contains(where: { $0.kind == kind })
            || untouched.contains(where: { $0.kind == kind }) {
            let units = Set(rows.filter { $0.kind == kind }.map(\.unit) + untouched.filter { $0.kind == kind }.map(\.unit))
            lines.append("== \(heading) (source units: \(units.count))")
            lines.append("family       photos before |  shoot mean    p10   worst | single mean    p10   worst | "
                         + "oracle mean    p10 | auto-level mean    p10   worst")
            let ofKind = rows.filter { $0.kind == kind }
            for family in families + ["all"] {
                let sel = ofKind.filter { family == "all" || $0.family == family }
                guard !sel.isEmpty else { continue }
                let s = Self.summaries(sel)
                let before = sel.reduce(0) { $0 + $1.before } / Double(sel.count)
                let level = s.autoLevel.map { String(format: "%15.3f %6.3f %7.3f", $0.mean, $0.p10, $0.worst) }
                lines.append(family.padding(toLength: 12, withPad: " ", startingAt: 0)
                             + String(format: " %6d %6.2f | %11.3f %6.3f %7.3f | %11.3f %6.3f %7.3f | %11.3f %6.3f | ",
                                      sel.count, before, s.shoot.mean, s.shoot.p10, s.shoot.worst, s.single.mean,
                                      s.single.p10, s.single.worst, s.oracle.mean, s.oracle.p10)
                             + (level ?? "              —"))
            }
            lines.append(String(format: "photos below −0.25: shoot %d, single %d", ofKind.count { $0.shoot < -0.25 },
                                ofKind.count { $0.single < -0.25 }))
            lines.append(movedLine(untouched.filter { $0.kind == kind }))
        }
        lines += acceptance()
        return lines.joined(separator: "\n")
    }

    private func movedLine(_ moved: [ShootEvaluation.Moved]) -> String {
        guard !moved.isEmpty else { return "untouched shoots: none" }
        let n = Double(moved.count)
        return String(format: "untouched shoots, %d photos moved (mean ΔE00 each): shoot mean %.3f max %.3f; single "
                      + "mean %.3f max %.3f", moved.count, moved.reduce(0) { $0 + $1.shoot } / n,
                      moved.map(\.shoot).max() ?? 0, moved.reduce(0) { $0 + $1.single } / n,
                      moved.map(\.single).max() ?? 0)
    }

    /// Issue 53's acceptance, read off the shoot's correction: reported, never a target the model is tuned to.
    private func acceptance() -> [String] {
        let photos = rows.filter { $0.kind == "photos" }, crops = rows.filter { $0.kind == "crops" }
        let moved = { (kind: String) in self.untouched.filter { $0.kind == kind }.map(\.shoot).max() ?? 0 }
        let s = Summary(photos.map(\.shoot)), c = Summary(crops.map(\.shoot))
        let mark = { (ok: Bool) in ok ? "met" : "not met" }
        return [
            "acceptance (issue 53), the shoot's correction:",
            String(format: "  shoots of photos: mean %.3f ≥ 0.35 %@; p10 %.3f ≥ 0 %@; worst %.3f ≥ −0.25 %@; "
                   + "untouched max %.3f ≤ 1.0 %@", s.mean, mark(s.mean >= 0.35), s.p10, mark(s.p10 >= 0), s.worst,
                   mark(s.worst >= -0.25), moved("photos"), mark(moved("photos") <= 1)),
            String(format: "  shoots of crops: worst %.3f ≥ −0.25 %@; untouched max %.3f ≤ 1.0 %@", c.worst,
                   mark(c.worst >= -0.25), moved("crops"), mark(moved("crops") <= 1)),
        ]
    }
}
