import ArgumentParser
import Foundation
import LookCore
import LookModel
import Workflows

/// Text from the catalog, safe for the terminal (see `MessageText`).
func shown(_ text: String) -> String { MessageText.quote(text) }

/// A catalog look as messages name it: its GUID and, quoted, its name.
func named(_ look: LookRecord) -> String { "\(look.guid) (\(shown(look.name)))" }

/// Where the version a save replaced can still be read: "version N stays as GUID@N".
func olderVersionKept(_ outcome: VersionOutcome) -> String {
    "version \(outcome.before.version) stays as \(outcome.before.guid)@\(outcome.before.version)"
}

/// The look argument of the `looks` subcommands that revise one.
let lookReferenceHelp = ArgumentHelp("GUID, GUID prefix (8+ hex digits) or name.", valueName: "look")

/// `lookstudio looks …`: list, show and remove catalog looks.
struct LooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "looks",
        abstract: "List, show, revise, revert, rename, tag, rebuild and remove the looks in the catalog.",
        subcommands: [List.self, Show.self, Update.self, Versions.self, Revert.self, Rename.self, Tag.self, Untag.self,
                      Rebuild.self, Remove.self, RenderShipped.self])

    /// `looks list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List looks by name.",
            discussion: "Example:\n  lookstudio looks list --tag black-and-white --json")

        @OptionGroup var global: GlobalOptions
        @Option(help: "Only looks with this tag (ignoring case).") var tag: String?
        @Flag(help: "Print a JSON array (see docs/CATALOG.md).") var json = false

        func run() throws {
            let looks = try global.workspace.looks(tag: tag)
            if json {
                print(try CatalogJSON.string(looks.map { CatalogJSON.Look($0) }))
                return
            }
            for look in looks {
                let tags = look.tags.isEmpty ? "" : "  [\(shown(look.tags.joined(separator: ", ")))]"
                print("\(look.guid)  \(look.cubeSize)³  \(shown(look.name))\(tags)")
            }
        }
    }

    /// `looks show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one look's metadata.",
            discussion: "Example:\n  lookstudio looks show \"Red Filter B&W\" --json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String
        @Flag(help: "Print a JSON object (see docs/CATALOG.md).") var json = false

        func run() throws {
            let details = try global.workspace.lookDetails(look)
            let (record, scenes) = (details.look, details.defaultForScenes)
            if json {
                print(try CatalogJSON.string(CatalogJSON.Look(record, defaultForScenes: scenes)))
                return
            }
            print("""
                guid:          \(record.guid)
                version:       \(record.version)\(record.isCurrentVersion ? "" : " (an older version)")
                name:          \(shown(record.name))
                cube size:     \(record.cubeSize)
                stored as:     16-bit \(record.layout) PNG
                content hash:  \(record.contentHash)
                source:        \(record.sourceFormat)\(record.sourceFile.map { " (\(shown($0)))" } ?? "")
                created:       \(CatalogJSON.timestamp(record.createdAt))
                tags:          \(shown(record.tags.joined(separator: ", ")))
                working space: \(shown(details.workingSpaceTitle))
                description:\(Self.block(record.description))
                default for scenes: \(scenes.isEmpty ? "none" : scenes.map(String.init).joined(separator: ", "))
                """)
            if let recipe = record.recipeYAML { print("recipe:\n\(MessageText.quote(recipe, keepNewlines: true))") }
        }

        /// A description after its label, or, when it has several lines (an extracted look's provenance), on the
        /// lines below, indented, so the YAML reads as YAML; overlong lines cut.
        static func block(_ text: String) -> String {
            let trimmed = text.trimmingCharacters(in: .newlines)
            guard trimmed.contains("\n") else { return "   " + shown(trimmed) }
            let lines = MessageText.quote(trimmed, keepNewlines: true).split(separator: "\n",
                                                                                omittingEmptySubsequences: false)
            return "\n" + lines.map { "    " + cut($0) }.joined(separator: "\n")
        }

        /// Lines longer than this are cut for the terminal: an extracted look's provenance holds the colours its
        /// pairs show as one base64 line of about 5,500 characters, which `--json` prints whole.
        static let longestLine = 320

        static func cut(_ line: Substring) -> String {
            guard line.count > longestLine else { return String(line) }
            return line.prefix(longestLine - 40) + "… (\(line.count - longestLine + 40) more characters; --json has all)"
        }
    }

    /// `looks rm`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove a look and its versions; refused while a scene or another look's recipe uses it, "
                + "unless --force.",
            discussion: "Example:\n  lookstudio looks rm 7C7C394C --force")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String
        @Flag(help: "Remove it anyway: clear the default look of the scenes that use it; recipes naming it break.")
        var force = false

        func run() throws {
            let (record, removal) = try global.workspace.removeLook(look, force: force)
            if !removal.clearedScenes.isEmpty {
                printError("note: cleared the default look of scenes "
                    + removal.clearedScenes.map(String.init).joined(separator: ", "))
            }
            if !removal.brokenRecipes.isEmpty {
                printError("note: the recipes of " + shown(removal.brokenRecipes.joined(separator: ", "))
                    + " name this look: their cubes stay, but `looks rebuild` of them now fails")
            }
            print("removed \(named(record))")
        }
    }
}
