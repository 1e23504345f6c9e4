import LookCore

/// Errors from recipes: text a person wrote wrong, steps that cannot be resolved, files that cannot be read.
///
/// Every case carries what a person needs to find the problem: the recipe file and line, the step's number and id.
public enum RecipeError: Error, Equatable, CustomStringConvertible {
    /// The recipe text is not valid YAML or not shaped like a recipe (unknown key, wrong type, bad value).
    case recipe(file: String, line: Int?, message: String)
    /// One step of a recipe is wrong or cannot be resolved; `index` counts from 1.
    case step(file: String, line: Int?, index: Int, id: String, message: String)
    /// A file a recipe needed could not be read.
    case unreadable(path: String, reason: String)
    /// A cube size outside what the project accepts.
    case invalidSize(Int)
    /// Composing would take more work or memory than ``ComposeBudget`` allows; the message gives the figures.
    case overBudget(String)

    public var description: String {
        switch self {
        case .recipe(let file, let line, let message):
            return "\(RecipeError.place(file, line)): \(message)"
        case .step(let file, let line, let index, let id, let message):
            return "\(RecipeError.place(file, line)): step \(index) (\(id)): \(message)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .overBudget(let message):
            return message
        case .invalidSize(let n):
            return "cube size \(n) is not supported: use 2…256 entries per axis (4, 16, 33 and 64 are usual)"
        }
    }

    private static func place(_ file: String, _ line: Int?) -> String {
        line.map { "\(file) line \($0)" } ?? file
    }
}
