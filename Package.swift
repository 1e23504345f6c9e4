// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LookStudio",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "lookstudio", targets: ["lookstudio"]),
        .library(name: "LookCore", targets: ["LookCore"]),
        .library(name: "LookFormats", targets: ["LookFormats"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "LookCatalog", targets: ["LookCatalog"]),
        .library(name: "PluginHost", targets: ["PluginHost"]),
        // Built-in plugins: each a shared library that `swift build` puts next to the `lookstudio` executable.
        .library(name: "TonePlugin", type: .dynamic, targets: ["TonePlugin"]),
        .library(name: "WhiteBalancePlugin", type: .dynamic, targets: ["WhiteBalancePlugin"]),
        .library(name: "ColorPlugin", type: .dynamic, targets: ["ColorPlugin"]),
        .library(name: "BlendPlugin", type: .dynamic, targets: ["BlendPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "CLUTKernels"),
        .target(name: "LookCore", dependencies: ["CLUTKernels"]),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CPNGShim", dependencies: ["CPNG", "CZlib"]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        .target(name: "ImageIO", dependencies: ["CPNGShim", "CJPEGShim"]),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "LookFormats", dependencies: ["LookCore", "ImageIO"]),
        .target(
            name: "LookCatalog",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "CCrypto",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Page generation for `gallery` and `compose --preview`: HTML, CSS and JS as Swift strings; no SQL, no codecs.
        .target(name: "LookGallery"),
        .target(
            name: "LookEngine",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "PluginHost", "LookGallery",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "PluginABI"),
        .target(name: "PluginHost", dependencies: ["PluginABI", "LookCore"]),
        .target(name: "TonePlugin", dependencies: ["PluginABI"], path: "Plugins/Tone",
                publicHeadersPath: ".", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "WhiteBalancePlugin", dependencies: ["PluginABI"], path: "Plugins/WhiteBalance",
                publicHeadersPath: ".", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "ColorPlugin", dependencies: ["PluginABI"], path: "Plugins/Color",
                publicHeadersPath: ".", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "BlendPlugin", dependencies: ["PluginABI"], path: "Plugins/Blend"),
        .target(
            name: "LookBench",
            dependencies: ["LookCore", "LookFormats", "ImageIO", "LookEngine", "PluginHost", "LookCatalog"]
        ),
        .executableTarget(
            name: "lookstudio",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "LookEngine", "PluginHost", "LookCatalog", "LookBench",
                "LookGallery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LookCoreTests", dependencies: ["LookCore"]),
        .testTarget(name: "LookFormatsTests", dependencies: ["LookFormats", "LookCore", "ImageIO"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO"]),
        .testTarget(name: "LookCatalogTests", dependencies: ["LookCatalog", "LookCore", "LookFormats", "ImageIO"]),
        .testTarget(name: "LookEngineTests", dependencies: ["LookEngine", "LookCore", "LookFormats", "ImageIO", "PluginHost",
                                                            "LookGallery"]),
        .testTarget(name: "LookGalleryTests", dependencies: ["LookGallery"]),
        .testTarget(name: "CLITests", dependencies: ["lookstudio", "LookCore", "LookFormats", "ImageIO"]),
        .testTarget(name: "PluginHostTests", dependencies: ["PluginHost", "LookCore"]),
        .testTarget(name: "PluginsTests", dependencies: ["PluginHost"]),
    ],
    swiftLanguageModes: [.v6]
)

