/// Errors from batch runs: shard specifications and manifests.
public enum WorkflowError: Error, Equatable, CustomStringConvertible {
    /// A `--shard K/N` value that is not two whole numbers with 0 ≤ K < N.
    case invalidShard(String)
    /// The batch manifest could not be opened or written.
    case manifest(path: String, reason: String)
    /// A recipe saved as a look has no `name:` and none was given.
    case lookNeedsName
    /// The inputs named no image.
    case noImages([String])

    public var description: String {
        switch self {
        case .invalidShard(let text):
            return "--shard \(text): expected K/N with whole numbers 0 ≤ K < N, e.g. 0/4 for the first of four shards"
        case .manifest(let path, let reason):
            return "cannot write the manifest \(path): \(reason)"
        case .lookNeedsName:
            return "the recipe has no `name:`; give the look one with --name"
        case .noImages(let inputs):
            return "no images (.png, .jpg, .tif, .webp, .heic, .avif) in \(inputs.joined(separator: ", "))"
        }
    }
}
