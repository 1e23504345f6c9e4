import LookCore

/// What a workflow refuses (batch runs, recipe looks, studio requests), with what to change.
public enum WorkflowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `--shard K/N` value that is not two whole numbers with 0 ≤ K < N.
    case invalidShard(String)
    /// The batch manifest could not be opened or written.
    case manifest(path: String, reason: String)
    /// A recipe saved as a look has no `name:` and none was given.
    case lookNeedsName
    /// The inputs named no image.
    case noImages([String])
    /// Studio: a photo path that does not exist.
    case missingPhoto(String)
    /// Studio: a photo that cannot be decoded.
    case unreadablePhoto(name: String, String)
    /// Studio: no photo with this index in the session.
    case noSuchPhoto(Int)
    /// Studio: a dropped photo over the upload limit.
    case tooLarge(name: String, Int)
    /// Studio: a cube size out of range.
    case badSize(Int)
    /// Studio: a preview's long side out of range.
    case badPreviewSize(Int)
    /// Studio: a strength out of range.
    case badStrength(Double)
    /// Studio: an unknown export format.
    case badFormat(String)
    /// Studio: a request the API does not accept.
    case badRequest(String)
    /// A batch image stopped by SIGINT or SIGTERM before all its outputs were written.
    case interrupted(file: String, signal: String)
    /// A look whose stored provenance cannot be read back for a refit.
    case provenance(look: String, reason: String)
    /// A refit given other photos than the look was extracted from.
    case refitSources(look: String, reason: String)
    /// An extraction's report folder that cannot be made or written.
    case reportFolder(path: String, reason: String)
    /// Two inputs of one run would be written to the same output file (`first` and `second` as given).
    case outputCollision(first: String, second: String, output: String)
    /// One input file given twice (`first` and `second`: how each was given), so its output would be written twice.
    case duplicateInput(first: String, second: String, output: String)
    /// A folder run's output folder could not be created.
    case outputFolder(path: String, reason: String)
    /// The output file of a one-image run names no image format.
    case outputName(String)
    /// A grey card that cannot be used (`--grey-card`): the message names the card and why.
    case greyCard(String)
    /// A `--neutral` or `--grey-card` argument that cannot be used as given.
    case neutralArgument(String)
    /// A photo of a `--shoot` run that could not be read for its shoot's estimate (the message names it).
    case shootPhoto(String)
    /// A file imported without a name whose file name makes no usable look name (`problem`: the name rule broken).
    case unusableFileName(file: String, problem: String)
    /// `looks revert` given a look's current version (`reference` as given): there is nothing to go back to.
    case revertToCurrent(reference: String, guid: String, version: Int)
    /// A gallery with no look to show: none has `tag`, or the catalog has none.
    case noLooks(tag: String?)
    /// A look without a stored recipe cannot be rebuilt (`sourceFormat`: what it was made from).
    case noRecipe(guid: String, name: String, sourceFormat: String)
    /// A CDL file holding several corrections, imported without saying which (`corrections`: each as listed).
    case cdlChoice(file: String, corrections: [String])
    /// A CDL file with no correction of the id asked for.
    case cdlNoSuchID(file: String, id: String, corrections: [String])
    /// A `.cdl` whose decisions only refer to corrections held elsewhere (`references`: the ids they name).
    case cdlNoCorrection(file: String, references: [String])
    /// A CDL correction whose numbers `grade.cdl` does not take (`problem`: the composer's message).
    case cdlOutOfRange(file: String, line: Int?, problem: String)
    /// A look exported as a CDL that is not one (`reason`: what it is instead).
    case notACDL(look: String, reason: String)
    /// A scene's default look named by an older version (`reference` as given): a scene follows a look.
    case olderVersionForScene(reference: String, guid: String, name: String, version: Int)

    /// True for a refusal of what the user asked (a usage error), rather than of what was found while running.
    public var isUsageError: Bool {
        switch self {
        case .olderVersionForScene, .noLooks, .revertToCurrent: return true
        default: return false
        }
    }

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
        case .missingPhoto(let path): return "\(path): no such file or folder"
        case .unreadablePhoto(let name, let reason): return "\(name): cannot read the photo: \(reason)"
        case .noSuchPhoto(let id): return "no photo \(id) in this studio session (see GET /api/photos)"
        case .tooLarge(let name, let bytes):
            return "\(name): \(bytes) bytes is over the \(StudioSession.maxUploadBytes >> 20) MB limit for a "
                + "dropped photo"
        case .badSize(let size): return TextNumber.outOfRange("cube size", size, ColorCube.sizeRange)
        case .badPreviewSize(let side):
            return TextNumber.outOfRange("preview size", side, StudioSession.previewSides) + " pixels"
        case .badStrength(let s): return TextNumber.outOfRange("strength", s, 0...200)
        case .badFormat(let f):
            return "unknown format \"\(f)\": use cube, 3dl or png for looks, f32, u8 or u16 for cubes"
        case .badRequest(let why): return "bad request: \(why)"
        case .interrupted(let file, let signal): return "\(file): interrupted by \(signal)"
        case .provenance(let look, let reason):
            return "look \"\(look)\" cannot be refitted: \(reason); extract a new look from the photos instead"
        case .refitSources(let look, let reason):
            return "look \"\(look)\" cannot be refitted from these files: \(reason)"
        case .reportFolder(let path, let reason):
            return "--report \(path): \(reason); give another folder (nothing was fitted or stored)"
        case .outputCollision(let first, let second, let output):
            return "\(first) and \(second) would both be written to \(output); give them different names or "
                + "separate runs"
        case .duplicateInput(let first, let second, let output):
            let given = first == second ? "" : " (as \(first) and \(second))"
            return "\(first) is given twice\(given), so \(output) would be written twice; give each input once"
        case .outputFolder(let path, let reason):
            return "\(path): cannot create the output folder (\(reason))"
        case .revertToCurrent(let reference, let guid, let version):
            return "\(reference) is the current version (\(version)) of look \(guid); give an older one, "
                + "\(guid)@N with N below \(version)"
        case .noLooks(let tag):
            return tag.map { "no look has the tag \"\($0)\"" } ?? "the catalog has no looks"
        case .unusableFileName(let file, let problem):
            return "\(file): its file name does not make a usable look name: \(problem)"
        case .noRecipe(let guid, let name, let sourceFormat):
            return "look \(guid) (\(name)) has no recipe to rebuild it from: it was "
                + (sourceFormat == "shipped" ? "shipped as a colour function" : "imported from a \(sourceFormat) file")
        case .cdlChoice(let file, let corrections):
            return "\(file) holds \(corrections.count) corrections: \(corrections.joined(separator: ", ")); choose one "
                + "with --id ID"
        case .cdlNoSuchID(let file, let id, let corrections):
            return "\(file) has no correction with the id \"\(MessageText.quote(id))\"; it holds "
                + corrections.joined(separator: ", ")
        case .cdlNoCorrection(let file, let references):
            guard !references.isEmpty else { return "\(file) holds no ColorCorrection" }
            return "\(file) holds no correction of its own (its decisions refer to "
                + references.map { "\"\(MessageText.quote($0))\"" }.joined(separator: ", ")
                + "); import the .ccc that holds them, with --id ID"
        case .cdlOutOfRange(let file, let line, let problem):
            return "\(file)\(line.map { " line \($0)" } ?? ""): \(problem); LookStudio's grade.cdl takes slope "
                + "0…10, offset −2…2, power 0.01…10 and saturation 0…10"
        case .notACDL(let look, let reason):
            return "look \"\(MessageText.quote(look))\" \(reason), not a CDL: a .cc carries only slope, offset, power "
                + "and saturation; export it for resolve (a .cube) or another table target instead"
        case .olderVersionForScene(let reference, let guid, let name, let version):
            return "\(reference) names version \(version) of \"\(name)\"; a scene uses a look's current version: give "
                + "the look without @\(version) (to bring that cube back, export \(guid)@\(version) and store it with "
                + "`looks update`)"
        case .outputName(let path):
            return "\(path): not an image file name; end it with .png, .jpg, .tif, .webp, .heic or .avif, or with / "
                + "to write into a folder of that name"
        case .greyCard(let message), .neutralArgument(let message), .shootPhoto(let message):
            return message
        }
    }
}
