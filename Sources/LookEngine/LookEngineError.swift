/// Errors from the engine: recipes a person wrote wrong, steps that cannot be resolved, files that cannot be read,
/// correction parameters out of range.
///
/// Every case carries what a person needs to find the problem: the recipe file and line, the step's number and id,
/// the flag and its range.
public enum LookEngineError: Error, Equatable, CustomStringConvertible {
    /// The recipe text is not valid YAML or not shaped like a recipe (unknown key, wrong type, bad value).
    case recipe(file: String, line: Int?, message: String)
    /// One step of a recipe is wrong or cannot be resolved; `index` counts from 1.
    case step(file: String, line: Int?, index: Int, id: String, message: String)
    /// A file the engine needed could not be read.
    case unreadable(path: String, reason: String)
    /// A cube size outside what the project accepts.
    case invalidSize(Int)
    /// A correction parameter is outside its range; `name` is the CLI flag's name without dashes.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>)
    /// A look GUID was asked for but no cube was supplied for it.
    case lookMissing(guid: String)
    /// A gallery could not be built (no photos, an unwritable folder, a look whose cube cannot be loaded).
    case gallery(String)
    /// A `--shard K/N` value that is not two whole numbers with 0 ≤ K < N.
    case invalidShard(String)
    /// The batch manifest could not be opened or written.
    case manifest(path: String, reason: String)

    public var description: String {
        switch self {
        case .recipe(let file, let line, let message):
            return "\(LookEngineError.place(file, line)): \(message)"
        case .step(let file, let line, let index, let id, let message):
            return "\(LookEngineError.place(file, line)): step \(index) (\(id)): \(message)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .invalidSize(let n):
            return "cube size \(n) is not supported: use 2…256 entries per axis (4, 16, 33 and 64 are usual)"
        case .outOfRange(let name, let value, let range):
            return "--\(name) \(LookEngineError.number(value)) is out of range: use "
                + "\(LookEngineError.number(range.lowerBound))…\(LookEngineError.number(range.upperBound))"
        case .lookMissing(let guid):
            return "look \(guid) was not found in the catalog (list looks with `lookstudio looks list`)"
        case .gallery(let message):
            return "gallery: \(message)"
        case .invalidShard(let text):
            return "--shard \(text): expected K/N with whole numbers 0 ≤ K < N, e.g. 0/4 for the first of four shards"
        case .manifest(let path, let reason):
            return "cannot write the manifest \(path): \(reason)"
        }
    }

    private static func place(_ file: String, _ line: Int?) -> String {
        line.map { "\(file) line \($0)" } ?? file
    }

    private static func number(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}
