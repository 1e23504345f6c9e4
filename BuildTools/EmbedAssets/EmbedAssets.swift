import Foundation
import PackagePlugin

/// Embeds every file of a target's `Resources` folder in the target as a Swift string constant of `EmbeddedAssets`
/// (made by `EmbedAssetsTool`), so the web pages' HTML, JavaScript and CSS are real files in the source tree while
/// the built binary still carries them and works when copied alone.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // SwiftPM's default layout: `Target.directoryURL` needs tools version 6.1 and `directory.string` is deprecated.
        let folder = context.package.directoryURL.appending(path: "Sources/\(target.name)/Resources")
        // The target excludes the folder (SwiftPM would otherwise ask to declare the files as resources), so its
        // files are not among the target's source files: list them here. Hidden files are editors' litter.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { !$0.hasPrefix(".") }.sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [.buildCommand(
            displayName: "Embedding \(target.name)'s \(names.joined(separator: ", "))",
            executable: try context.tool(named: "EmbedAssetsTool").url,
            arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
            inputFiles: inputs, outputFiles: [output]
        )]
    }
}
