import Extraction
import LookCore
import Yams
import YAMLScreen

/// How an extracted look was made, read back from the provenance block `LookExtraction` stores as its description:
/// the fit's size, interpolation and working space, its held-out error, and every pair's file names and SHA-256.
public struct ExtractionProvenance: Sendable, Equatable {
    /// One recorded file: its name when extracted and its content hash.
    public struct File: Sendable, Equatable {
        /// The file's name (no folder).
        public var name: String
        /// SHA-256 of its bytes, lowercase hex.
        public var sha256: String
    }

    /// One recorded pair.
    public struct Pair: Sendable, Equatable {
        /// The original.
        public var before: File
        /// The edited photo.
        public var after: File
    }

    /// The working space word (srgb, display-p3, …).
    public var workingSpace: String
    /// Entries per cube axis.
    public var size: Int
    /// The interpolation the look was fitted for.
    public var interpolation: Interpolation
    /// The fit's held-out mean ΔE00, when recorded.
    public var heldOutMean: Double?
    /// The fit's typical coverage (docs/EXTRACT.md), when recorded.
    public var typicalCoverage: Double?
    /// The pairs, in the order they were given.
    public var pairs: [Pair]
    /// The colours the pairs show, when recorded (looks extracted before that have none).
    public var shownColours: ShownColours?

    /// Reads the provenance of the look `look` (its name, for messages) from its stored description.
    public init(description: String, look: String) throws(WorkflowError) {
        func refuse(_ why: String) -> WorkflowError {
            .provenance(look: look, reason: why)
        }
        if let problem = YAMLScreen.problem(in: description) { throw refuse(problem.message) }
        let root: Node?
        do {
            root = try Yams.compose(yaml: description)
        } catch {
            throw refuse("its description is not the YAML extraction writes")
        }
        guard let block = root?["extracted_from_pairs"] else {
            throw refuse("its description has no extracted_from_pairs block (was it extracted from photos?)")
        }
        guard let space = block["working_space"]?.string, let size = block["size"]?.int,
              let interpolation = block["interpolation"]?.string.flatMap(Interpolation.init(rawValue:)) else {
            throw refuse("the block lacks working_space, size or interpolation")
        }
        var pairs: [Pair] = []
        for item in block["pairs"]?.sequence ?? [] {
            func file(_ key: String) -> File? {
                guard let name = item[key]?["file"]?.string, let hash = item[key]?["sha256"]?.string,
                      hash.count == 64 else { return nil }
                return File(name: name, sha256: hash.lowercased())
            }
            guard let before = file("before"), let after = file("after") else {
                throw refuse("pair \(pairs.count + 1) lacks a file name or SHA-256")
            }
            pairs.append(Pair(before: before, after: after))
        }
        guard !pairs.isEmpty else { throw refuse("no pairs are recorded") }
        workingSpace = space
        self.size = size
        self.interpolation = interpolation
        heldOutMean = block["held_out_de00"]?["mean"]?.float
        typicalCoverage = block["typical_coverage"]?.float
        shownColours = block["shown_colours"]?.string.flatMap(ShownColours.init(encoded:))
        self.pairs = pairs
    }
}
