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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "LookCore"),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(name: "CPNGShim", dependencies: ["CPNG"]),
        .target(name: "ImageIO", dependencies: ["CPNGShim"]),
        .target(name: "LookFormats", dependencies: ["LookCore", "ImageIO"]),
        .target(
            name: "LookCatalog",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "lookstudio",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "LookCatalog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LookCoreTests", dependencies: ["LookCore"]),
        .testTarget(name: "LookFormatsTests", dependencies: ["LookFormats", "LookCore", "ImageIO"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO"]),
        .testTarget(name: "LookCatalogTests", dependencies: ["LookCatalog", "LookCore", "LookFormats", "ImageIO"]),
        .testTarget(name: "CLITests", dependencies: ["LookCore", "LookFormats", "ImageIO"]),
    ],
    swiftLanguageModes: [.v6]
)

