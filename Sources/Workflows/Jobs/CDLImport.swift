import Foundation
import LookCatalog
import LookCore
import LookFormats
import PluginHost
import Recipes

/// `import` of ASC CDL files (`.cc`, `.ccc`, `.cdl`): one correction becomes a look whose recipe is that one
/// `grade.cdl` step, composed into a cube as `compose --save` composes a recipe, with the recipe kept as provenance
/// (so `looks rebuild` recomposes it and `export --for cdl` gives the numbers back).
extension ImportJob {
    /// The cube size a CDL is composed at unless the request gives one: 64, the catalog's canonical size and
    /// `compose --save`'s. A CDL that clamps inside 0…1 bends where a cube can only interpolate: such a grade comes
    /// out within 2 codes (8-bit) of its formula at 64³, 4 codes at 33³ (docs/guide/lut-files.md).
    public static let cdlDefaultSize = Composer.defaultSize

    /// True for a file the CDL reader takes, by its extension.
    public static func isCDL(_ file: String) -> Bool {
        CDLFile.fileExtensions.contains(URL(fileURLWithPath: file).pathExtension.lowercased())
    }

    /// The look for the chosen correction of a CDL file, its cube composed through `grade.cdl`, and the reader's
    /// warnings.
    func cdlLook(_ file: String, composer: Composer, in catalog: Catalog) throws
        -> (look: NewLook, warnings: [String]) {
        let base = URL(fileURLWithPath: file).lastPathComponent
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let contents = try CDLFile.read(path: file)
        var warnings = contents.warnings.map { "\(base) \($0)" }
        let correction = try chosenCorrection(in: contents, file: base)
        let name = lookName(for: correction, stem: stem, file: base, warnings: &warnings)
        let size = request.cdlSize ?? Self.cdlDefaultSize
        // The numbers are checked against grade.cdl's ranges first, so the message names the CDL file and its line
        // rather than step 1 of a recipe the user never wrote.
        if let problem = Self.rangeProblem(CDLRecipe.parameters(correction, style: request.cdlStyle), composer) {
            throw WorkflowError.cdlOutOfRange(file: base, line: correction.line, problem: problem)
        }
        let recipe = CDLRecipe.recipe(correction, style: request.cdlStyle, name: name, size: size, file: base)
        let composed = try composer.compose(recipe, size: size)
        if let note = Self.precisionNote(composed, file: base) { warnings.append(note) }
        let cube = try composed.quantizedTo16Bit()
        // A colourist's notes may sit at any level of the correction; the look keeps them all.
        let notes = correction.descriptions + correction.sopDescriptions + correction.satDescriptions
        let description = notes.isEmpty ? "ASC CDL" + (correction.id.map { " \($0)" } ?? "") + " from \(base)"
            : notes.joined(separator: "; ")
        let look = NewLook(cube: cube, name: name, tags: request.tags, sourceFormat: "cdl", sourceFile: base,
                           description: description,
                           recipeYAML: try SaveRecipeJob.provenance(recipe, name: name, size: size, in: catalog))
        return (look, warnings)
    }

    /// Why `grade.cdl` refuses these values, or nil; nil too when no plugin offers it (composing then says so).
    private static func rangeProblem(_ params: [String: ParameterSetting], _ composer: Composer) -> String? {
        guard let adjustment = composer.registry.adjustment(id: CDLRecipe.adjustment) else { return nil }
        do {
            _ = try adjustment.resolveParameters(params)
            return nil
        } catch {
            return error.description
        }
    }

    /// The correction the request names by id, or the file's only one.
    private func chosenCorrection(in contents: CDLContents, file: String) throws -> CDLCorrection {
        guard !contents.corrections.isEmpty else {
            throw WorkflowError.cdlNoCorrection(file: file, references: contents.decisions.compactMap(\.reference))
        }
        let listed = contents.corrections.map { c in
            (c.id.map { "\"\(MessageText.quote($0))\"" } ?? "(no id)") + (c.line.map { " (line \($0))" } ?? "")
        }
        if let id = request.cdlID {
            guard let found = contents.correction(id: id) else {
                throw WorkflowError.cdlNoSuchID(file: file, id: id, corrections: listed)
            }
            return found
        }
        guard contents.corrections.count == 1 else { throw WorkflowError.cdlChoice(file: file, corrections: listed) }
        return contents.corrections[0]
    }

    /// The request's name, else the correction's id when it can name a look, else the file's stem.
    private func lookName(for correction: CDLCorrection, stem: String, file: String, warnings: inout [String])
        -> String {
        if let name = request.name { return name }
        guard let id = correction.id?.trimmingCharacters(in: .whitespaces), !id.isEmpty else { return stem }
        if let problem = LookName.problem(name: id) {
            warnings.append("\(file): the correction's id \"\(MessageText.quote(id))\" cannot name a look "
                            + "(\(problem)); the look is named after the file")
            return stem
        }
        return id
    }
}
