import ArgumentParser
import Foundation
import LookCore
import LookModel
import Workflows

extension ComposeCommand {
    /// `--save`: a new look, or with `--replace`/`--as-version` a new version of an existing one; returns the GUID
    /// to print. A cube the catalog holds already stores nothing, and a note says so.
    func store(_ cube: ColorCube, job: ComposeJob, in workspace: Workspace) throws -> String {
        let mode: SaveRecipeJob.Mode
        if let asVersion {
            mode = .newVersion(of: asVersion)
        } else if replace {
            guard let target = name ?? job.recipe.name else { throw WorkflowError.lookNeedsName }
            mode = .newVersion(of: target)
        } else {
            mode = .newLook(name: name)
        }
        let saved: SaveRecipeJob.Saved
        do {
            saved = try job.save(cube, as: mode, in: workspace)
        } catch where FailureKind(error) == .conflict && !replace && asVersion == nil {
            // The name is taken (or the same cube is another look's): storing a new version is the other way.
            throw CommandFailure(description: "\(error); or add --replace to store the cube as the next version "
                                 + "of the look of that name")
        }
        switch saved {
        case .added(let record):
            return record.guid
        case .sameCube(let record):
            if case .newVersion = mode {
                printError("note: the cube is already \(label(record))'s current version \(record.version); "
                           + "nothing was stored")
            } else {
                printError("note: the same cube is already in the catalog as \(record.guid) "
                           + "(\"\(record.name)\"); nothing was stored")
            }
            return record.guid
        case .version(let outcome):
            printError("note: saved as version \(outcome.after.version) of \(label(outcome.after)); "
                       + olderVersionKept(outcome))
            return outcome.after.guid
        }
    }

    private func label(_ record: LookRecord) -> String { "\(record.guid) (\"\(MessageText.quote(record.name))\")" }

    /// `--preview`: the recipe's steps as a gallery in `-o` (default: beside the recipe's name, `NAME-preview`).
    func writePreview(_ job: ComposeJob) throws {
        let folder = output ?? URL(fileURLWithPath: recipe).deletingPathExtension().lastPathComponent + "-preview"
        let bar = galleryProgress()
        defer { bar?.close() }  // also on failure, so `error:` starts its own line
        let report = try job.preview(photos: preview, folder: folder, previewSize: previewSize, progress: bar?.callback)
        bar?.close()
        print(gallerySummary(report))
    }
}
