// swift-tools-version:6.0
// An app of its own that embeds LookStudio: it depends on the LookStudioKit product by path, with no flags of its
// own. (From a release: `.package(url: "https://…/LookStudio", from: "1.0.0")`.)
import PackageDescription

let package = Package(
    name: "LookStudioExample",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "LookStudio", path: "../..")],
    targets: [
        .executableTarget(name: "lookstudio-example",
                          dependencies: [.product(name: "LookStudioKit", package: "LookStudio")]),
    ],
    swiftLanguageModes: [.v6]
)
