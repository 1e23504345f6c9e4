import ArgumentParser
import Foundation
import LookCore
import Workflows

/// `looks update|versions|rename|tag|untag`: revising a look under its GUID.
extension LooksCommand {
    /// `looks update`.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a LUT file as the next version of a look (same GUID, name and tags; older versions kept).",
            discussion: """
            Scenes and scripts that use the look's GUID or name get the new version; the older ones stay readable \
            as GUID@N or NAME@N (`looks versions` lists them). A file whose cube is the current one adds nothing.

            Example:
              lookstudio looks update "Warm Film" warm-v2.cube
              lookstudio apply --look "Warm Film@1" in.jpg out.jpg
            """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: lookReferenceHelp) var look: String
        @Argument(help: ArgumentHelp("The new version (.png, .cube, .3dl).", valueName: "file")) var file: String
        @Option(help: "PNG layout: auto, tiled, strip or hald.") var layout: String = "auto"
        @Option(help: ArgumentHelp("Working space of the new version (as for import).", valueName: "space|file.icc"))
        var space: String = "srgb"

        func validate() throws {
            _ = try LayoutChoice(option: layout)
        }

        func run() throws {
            let update = try global.workspace.updateLook(look, from: file,
                                                         layout: try LayoutChoice(option: layout).layout, space: space)
            for w in update.warnings { printError("warning: \(w)") }
            let (outcome, record) = (update.outcome, update.outcome.before)
            guard outcome.changed else {
                print("unchanged: \(named(record)): the file holds version "
                    + "\(outcome.before.version)'s cube")
                return
            }
            print("\(named(record)): version \(outcome.after.version) stored; " + olderVersionKept(outcome))
        }
    }

    /// `looks versions`.
    struct Versions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a look's versions, oldest first.",
            discussion: "Example:\n  lookstudio looks versions \"Warm Film\" --json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: lookReferenceHelp) var look: String
        @Flag(help: "Print a JSON array (see README, Looks and versions).") var json = false

        func run() throws {
            let (record, versions) = try global.workspace.versions(of: look)
            if json {
                print(try CatalogJSON.string(versions.map { CatalogJSON.Version(guid: record.guid, $0) }))
                return
            }
            for v in versions {
                let source = v.sourceFormat + (v.sourceFile.map { " (\(shown($0)))" } ?? "")
                print("\(record.guid)@\(v.version)  \(v.cubeSize)³  \(CatalogJSON.timestamp(v.createdAt))  \(source)"
                    + (v.isCurrent ? "  current" : ""))
            }
        }
    }

    /// `looks revert`.
    struct Revert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an older version of a look current again, as its next version (every version is kept).",
            discussion: """
            The older version's cube, source, recipe and working space become the look's new current version; the \
            look keeps its GUID, name, tags and description, so scenes and recipes naming it get the old cube \
            back. `looks versions` lists the versions.

            Example:
              lookstudio looks versions "Warm Film"
              lookstudio looks revert "Warm Film@1"
            """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The version to bring back: GUID@N or NAME@N.", valueName: "look@N"))
        var look: String

        func validate() throws {
            guard let at = look.lastIndex(of: "@"), Int(look[look.index(after: at)...]) != nil else {
                throw ValidationError("give the version to bring back as LOOK@N, e.g. \"Warm Film@1\" "
                                      + "(`looks versions LOOK` lists them)")
            }
        }

        func run() throws {
            let outcome = try global.workspace.revertLook(look)
            let record = outcome.after
            guard outcome.changed else {
                print("unchanged: \(named(record)): the current version "
                    + "\(record.version) holds the cube of \(look) already")
                return
            }
            print("\(named(record)): version \(outcome.before.version + 1) stored from \(look); "
                + olderVersionKept(outcome))
        }
    }

    /// `looks rename`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a look (GUID, tags and versions unchanged).",
            discussion: "Example:\n  lookstudio looks rename \"Warm Film\" \"Warm Film (client)\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: lookReferenceHelp) var look: String
        @Argument(help: ArgumentHelp("The new name (README, Names).", valueName: "new-name")) var newName: String

        func run() throws {
            let result = try global.workspace.renameLook(look, to: newName)
            let record = result.before
            if !result.recipesNamingIt.isEmpty {
                printError("note: the recipes of " + shown(result.recipesNamingIt.joined(separator: ", "))
                    + " name this look by its old name: their cubes stay; edit them before `looks rebuild`")
            }
            print("renamed \(record.guid): \(shown(record.name)) → \(shown(result.after.name))")
        }
    }

    /// `looks tag`.
    struct Tag: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add tags to a look.", discussion: "Example:\n  lookstudio looks tag \"Warm Film\" portrait film")

        @OptionGroup var global: GlobalOptions
        @Argument(help: lookReferenceHelp) var look: String
        @Argument(help: ArgumentHelp("Tags to add.", valueName: "tag")) var tags: [String]

        func run() throws {
            let result = try global.workspace.tagLook(look, adding: tags)
            let record = result.look
            print("\(named(record)): tags \(shown(record.tags.joined(separator: ", ")))"
                + (result.changed.isEmpty ? " (it had them all)" : ""))
        }
    }

    /// `looks untag`.
    struct Untag: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove tags from a look (ignoring case).",
            discussion: "Example:\n  lookstudio looks untag \"Warm Film\" portrait")

        @OptionGroup var global: GlobalOptions
        @Argument(help: lookReferenceHelp) var look: String
        @Argument(help: ArgumentHelp("Tags to remove.", valueName: "tag")) var tags: [String]

        func run() throws {
            let result = try global.workspace.untagLook(look, removing: tags)
            let record = result.look
            let left = record.tags.isEmpty ? "none" : shown(record.tags.joined(separator: ", "))
            print("\(named(record)): tags \(left)"
                + (result.changed.isEmpty ? " (it had none of those)" : ""))
        }
    }
}
