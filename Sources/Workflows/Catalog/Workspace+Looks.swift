import Foundation
import LookCatalog
import LookCore
import LookFormats
import LookModel
import Recipes

/// A look with what `looks show` reports beside it.
public struct LookDetails: Sendable, Equatable {
    /// The look (the current version, or an older one for `GUID@N`).
    public var look: LookRecord
    /// Labels of the scenes that use it as their default look.
    public var defaultForScenes: [Int]
    /// Its working space for people: a named space's title, or the ICC profile's description.
    public var workingSpaceTitle: String
}

/// A look after a rename, with the recipes that still name it by its old name.
public struct LookRenaming: Sendable, Equatable {
    /// The look as it was.
    public var before: LookRecord
    /// The look as it is now.
    public var after: LookRecord
    /// "GUID (NAME)" of the looks whose recipe names it by the old name.
    public var recipesNamingIt: [String]
}

/// A look after tags were added or removed.
public struct LookTagging: Sendable, Equatable {
    /// The look as it is now.
    public var look: LookRecord
    /// The tags that were actually added or removed (none when it had them all, or none of them).
    public var changed: [String]
}

/// What storing a file as a look's next version did.
public struct LookUpdate: Sendable, Equatable {
    /// The versions before and after (equal when the file held the current cube).
    public var outcome: VersionOutcome
    /// What the reader tolerated or baked, each naming the file.
    public var warnings: [String]
}

/// What recomposing a look from its recipe did.
public struct LookRebuild: Sendable, Equatable {
    /// The look.
    public var look: LookRecord
    /// False when the recipe gives the stored cube.
    public var changed: Bool
    /// The largest difference between the old and new cube, in 16-bit code values.
    public var maxCodeDifference: Int
}

extension Workspace {
    /// The catalog's looks by name, those with `tag` only when given.
    public func looks(tag: String? = nil) throws -> [LookRecord] {
        try openCatalog().looks(tag: tag)
    }

    /// The cube of the look `reference` (GUID, prefix, name, `…@N`).
    public func cube(of reference: String) throws -> ColorCube {
        let catalog = try openCatalog()
        return try catalog.cube(try catalog.resolveLook(reference))
    }

    /// The look `reference` (GUID, prefix, name, `…@N`) with the scenes using it and its working space's title.
    public func lookDetails(_ reference: String) throws -> LookDetails {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        return LookDetails(look: record, defaultForScenes: try catalog.scenesUsing(lookGuid: record.guid),
                           workingSpaceTitle: LookSpaces.title(of: record))
    }

    /// The look `reference` and its versions, oldest first.
    public func versions(of reference: String) throws -> (look: LookRecord, versions: [LookVersion]) {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        return (record, try catalog.versions(guid: record.guid))
    }

    /// Renames a look (GUID, tags and versions unchanged).
    public func renameLook(_ reference: String, to name: String) throws -> LookRenaming {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        let result = try catalog.renameLook(guid: record.guid, to: name)
        return LookRenaming(before: record, after: result.look, recipesNamingIt: result.recipesNamingIt)
    }

    /// Adds tags to a look.
    public func tagLook(_ reference: String, adding tags: [String]) throws -> LookTagging {
        let catalog = try openCatalog()
        let result = try catalog.tagLook(guid: try catalog.resolveLook(reference).guid, tags: tags)
        return LookTagging(look: result.look, changed: result.added)
    }

    /// Removes tags from a look (ignoring case).
    public func untagLook(_ reference: String, removing tags: [String]) throws -> LookTagging {
        let catalog = try openCatalog()
        let result = try catalog.untagLook(guid: try catalog.resolveLook(reference).guid, tags: tags)
        return LookTagging(look: result.look, changed: result.removed)
    }

    /// Replaces a look's tags.
    public func setTags(_ reference: String, _ tags: [String]) throws -> LookRecord {
        let catalog = try openCatalog()
        return try catalog.setTags(guid: try catalog.resolveLook(reference).guid, tags)
    }

    /// Removes a look and its versions (refused while scenes or recipes use it, unless `force`).
    public func removeLook(_ reference: String, force: Bool) throws -> (look: LookRecord, removal: LookRemoval) {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        return (record, try catalog.removeLookReporting(guid: record.guid, force: force))
    }

    /// Stores the cube of a LUT file as the next version of a look, authored in `space` (as for import).
    public func updateLook(_ reference: String, from file: String, layout: CubeLayout?, space: String) throws
        -> LookUpdate {
        let workingSpace = try LookSpaces.stored(space)
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        let loaded = try LookFile.read(path: file, layout: layout)
        var new = NewLook(cube: loaded.cube, name: record.name, sourceFormat: loaded.format,
                          sourceFile: URL(fileURLWithPath: file).lastPathComponent)
        new.workingSpace = workingSpace.name
        new.workingSpaceICC = workingSpace.icc
        return LookUpdate(outcome: try catalog.saveVersion(guid: record.guid, new), warnings: loaded.warnings)
    }

    /// Makes the older version `reference` (`GUID@N` or `NAME@N`) current again, as the look's next version: its
    /// cube, source, recipe and working space; the look keeps its GUID, name, tags and description, and every
    /// version stays.
    public func revertLook(_ reference: String) throws -> VersionOutcome {
        let catalog = try openCatalog()
        let old = try catalog.resolveLook(reference)
        guard !old.isCurrentVersion else {
            throw WorkflowError.revertToCurrent(reference: reference, guid: old.guid, version: old.version)
        }
        var new = NewLook(cube: try catalog.cube(old), name: old.name, sourceFormat: old.sourceFormat,
                          sourceFile: old.sourceFile, recipeYAML: old.recipeYAML)
        new.workingSpace = old.workingSpace
        new.workingSpaceICC = old.workingSpaceICC
        return try catalog.saveVersion(guid: old.guid, new)
    }

    /// Recomposes a look from its stored recipe (at the recipe's size, else the look's) and replaces its cube.
    public func rebuildLook(_ reference: String) throws -> LookRebuild {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        guard let yaml = record.recipeYAML else {
            throw WorkflowError.noRecipe(guid: record.guid, name: record.name, sourceFormat: record.sourceFormat)
        }
        let recipe = try Recipe.parse(yaml, fileName: "recipe of \(record.name)")
        let old = try catalog.cube(record)
        let new = try compose(recipe, size: recipe.size ?? record.cubeSize)
        let result = try catalog.replaceCube(guid: record.guid, with: new)
        return LookRebuild(look: record, changed: result.changed,
                           maxCodeDifference: Self.maxCodeDifference(old, new))
    }

    /// The largest difference between two cubes in 16-bit code values; a size change compares on the new grid.
    static func maxCodeDifference(_ a: ColorCube, _ b: ColorCube) -> Int {
        let resampled = a.size == b.size ? a : ((try? a.resampled(to: b.size)) ?? a)
        guard resampled.size == b.size else { return 65535 }
        var worst: Float = 0
        for (x, y) in zip(resampled.values, b.values) { worst = max(worst, abs(min(max(x, 0), 1) - min(max(y, 0), 1))) }
        return Int((worst * 65535).rounded())
    }
}

extension Workspace {
    /// Regenerates the shipped looks (PNG + YAML) into `folder` from their recipes or colour functions; returns the
    /// files written. Recipe looks are quantised like every stored composed cube, so `looks rebuild` on a fresh
    /// catalog finds them unchanged.
    public func renderShippedLooks(to folder: String) throws -> [String] {
        let composer = composer()
        return try ShippedLooks.render(to: folder) { look, yaml in
            try composer.compose(try Recipe.parse(yaml, fileName: "\(look.stem).yaml"),
                                 size: ShippedLooks.size).quantizedTo16Bit()
        }
    }
}
