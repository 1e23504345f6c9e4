#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What composing one recipe may cost, checked before the work: a 1.6 kB recipe must not take gigabytes or minutes.
///
/// - Work: every active step is evaluated at every lattice point, so a compose costs steps × size³ point
///   evaluations: measured 45 ns each for `tone.gamma` (a `powf` per channel, one core, release build), 16 steps at
///   256³ in 11 s. The default, 2²⁸ ≈ 268 million, is about 12 s of that: 16 steps at 256³, 1,024 at 64³, 7,469
///   at 33³. Curves leave the count as it is: a plugin prepares a curve once per `apply` call (the ABI asks it to),
///   not once per point, and a curve has at most 64 points (a longer one is refused when the recipe is parsed).
/// - Memory: the distinct LUT files and looks a recipe loads are held as baked cubes (12 bytes an entry) until the
///   compose ends; the same file or look named by many steps is loaded once. The default, 2 × 256³ entries
///   (403 MB), holds two of the largest cubes a file may declare, or 128 of 64³.
public struct ComposeBudget: Sendable, Equatable {
    /// Most steps × size³ lattice point evaluations in one compose.
    public var maxStepPoints: Int
    /// Most cube entries held at once by the distinct LUT files and looks of one recipe.
    public var maxHeldEntries: Int

    /// A budget of `maxStepPoints` evaluations and `maxHeldEntries` held entries.
    public init(maxStepPoints: Int, maxHeldEntries: Int) {
        self.maxStepPoints = maxStepPoints
        self.maxHeldEntries = maxHeldEntries
    }

    /// The budget every command uses.
    public static let standard = ComposeBudget(maxStepPoints: 1 << 28, maxHeldEntries: 2 * 256 * 256 * 256)

    /// Refuses `steps` active steps on a grid of `size` when they exceed ``maxStepPoints``.
    public func checkWork(steps: Int, size: Int, recipe: String) throws(RecipeError) {
        let points = size * size * size
        let (work, overflow) = steps.multipliedReportingOverflow(by: points)
        guard overflow || work > maxStepPoints else { return }
        var smaller = size
        while smaller > 2 && steps > maxStepPoints / (smaller * smaller * smaller) { smaller -= 1 }
        let lower = steps > maxStepPoints / 8 ? "merge steps"
            : "\(steps) steps fit at size \(smaller) or less (`size:` in the recipe, --size on the command line)"
        throw .overBudget("\(recipe): \(steps) steps at size \(size) would evaluate \(Self.grouped(steps)) × "
            + "\(size)³ = \(overflow ? "more than \(Self.grouped(Int.max))" : Self.grouped(work)) lattice points, "
            + "over the compose budget of \(Self.grouped(maxStepPoints)) (about 12 s of work); at size \(size) "
            + "at most \(Self.grouped(maxStepPoints / points)) steps fit, and \(lower)")
    }

    /// Refuses holding `entries` cube entries (after loading `what`) when over ``maxHeldEntries``.
    func checkHeld(_ entries: Int, adding what: String, size: Int, recipe: String) throws(RecipeError) {
        guard entries > maxHeldEntries else { return }
        throw .overBudget("\(recipe): loading \(what) (\(size)³) brings the distinct LUTs and looks held to "
            + "\(Self.grouped(entries)) cube entries (\(Self.grouped(entries * 12)) bytes), over the compose budget "
            + "of \(Self.grouped(maxHeldEntries)) entries; bake large LUTs smaller first "
            + "(lookstudio convert BIG.cube small.cube --size 64) or use fewer distinct files")
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// Identifies a file by device, inode, size and modification time, so the same file named twice (or through
    /// a link) is loaded once, and a file replaced between two loads is not taken for the first; nil if `stat` fails.
    static func fileIdentity(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
