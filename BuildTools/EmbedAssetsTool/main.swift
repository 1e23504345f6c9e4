import Foundation

// Usage: EmbedAssetsTool OUTPUT.swift FILE… — writes `enum EmbeddedAssets` with one string constant per file.
// Run by the EmbedAssets build-tool plugin; an error names the file and stops the build.
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedAssetsTool OUTPUT.swift FILE...\n".utf8))
    exit(2)
}
do {
    let assets = try arguments.dropFirst().map { path in
        try EmbeddedAsset(path: path, bytes: Data(contentsOf: URL(fileURLWithPath: path)))
    }
    try Data(EmbeddedAsset.swiftSource(assets).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
