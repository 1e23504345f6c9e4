import LookBench
import LookCore

/// What `bench correct --shoots --json` prints (snake_case keys, sorted): per kind of shoot and family (and `all`),
/// the recovery summaries; per kind, how far untouched photos moved; then every row, so the figures can be
/// recomputed elsewhere.
struct ShootBenchJSON: Encodable {
    struct Summary: Encodable {
        var mean: Double, p10: Double, worst: Double
        init(_ s: ShootEvaluation.Report.Summary) { (mean, p10, worst) = (s.mean, s.p10, s.worst) }
    }

    struct Group: Encodable {
        var kind: String, family: String, photos: Int, before: Double
        var shoot: Summary, single: Summary, oracle: Summary
        @NullEncoded var autoLevel: Summary?
    }

    struct Moved: Encodable {
        var kind: String, photos: Int, shootMean: Double, shootMax: Double, singleMean: Double, singleMax: Double
    }

    struct Row: Encodable {
        var shoot: String, kind: String, unit: String, family: String, photo: String
        /// Faulted photos: ΔE00 before and each corrector's recovery; null for an untouched shoot's photos.
        @NullEncoded var before: Double?
        @NullEncoded var shootRecovery: Double?
        @NullEncoded var singleRecovery: Double?
        @NullEncoded var oracleRecovery: Double?
        @NullEncoded var autoLevelRecovery: Double?
        /// An untouched shoot's photos: how far each correction moved them (mean ΔE00); null for faulted photos.
        @NullEncoded var shootMoved: Double?
        @NullEncoded var singleMoved: Double?
    }

    var split: String, shootSize: Int, autoLevel: String
    var groups: [Group], untouched: [Moved], rows: [Row]

    init(_ report: ShootEvaluation.Report) {
        split = report.split
        shootSize = report.shootSize
        autoLevel = report.autoLevel
        groups = []
        untouched = []
        for kind in ["photos", "crops"] {
            let ofKind = report.rows.filter { $0.kind == kind }
            for family in report.families + ["all"] {
                let sel = ofKind.filter { family == "all" || $0.family == family }
                guard !sel.isEmpty else { continue }
                let s = ShootEvaluation.Report.summaries(sel)
                groups.append(Group(kind: kind, family: family, photos: sel.count,
                                    before: sel.reduce(0) { $0 + $1.before } / Double(sel.count),
                                    shoot: Summary(s.shoot), single: Summary(s.single), oracle: Summary(s.oracle),
                                    autoLevel: s.autoLevel.map(Summary.init)))
            }
            let moved = report.untouched.filter { $0.kind == kind }
            guard !moved.isEmpty else { continue }
            let n = Double(moved.count)
            untouched.append(Moved(kind: kind, photos: moved.count, shootMean: moved.reduce(0) { $0 + $1.shoot } / n,
                                   shootMax: moved.map(\.shoot).max() ?? 0,
                                   singleMean: moved.reduce(0) { $0 + $1.single } / n,
                                   singleMax: moved.map(\.single).max() ?? 0))
        }
        rows = report.rows.map {
            Row(shoot: $0.id, kind: $0.kind, unit: $0.unit, family: $0.family, photo: $0.photo, before: $0.before,
                shootRecovery: $0.shoot, singleRecovery: $0.single, oracleRecovery: $0.oracle,
                autoLevelRecovery: $0.autoLevel, shootMoved: nil, singleMoved: nil)
        } + report.untouched.map {
            Row(shoot: $0.id, kind: $0.kind, unit: $0.unit, family: "untouched", photo: $0.photo, before: nil,
                shootRecovery: nil, singleRecovery: nil, oracleRecovery: nil, autoLevelRecovery: nil,
                shootMoved: $0.shoot, singleMoved: $0.single)
        }
    }
}
