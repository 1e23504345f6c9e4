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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .target(name: "LookEngine", dependencies: ["LookCore", "LookFormats", "ImageIO"]),
        .executableTarget(
            name: "lookstudio",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "LookEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LookCoreTests", dependencies: ["LookCore"]),
        .testTarget(name: "LookFormatsTests", dependencies: ["LookFormats", "LookCore", "ImageIO"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO"]),
        .testTarget(name: "LookEngineTests", dependencies: ["LookEngine", "LookCore", "ImageIO"]),
        .testTarget(name: "CLITests", dependencies: ["lookstudio", "LookCore", "LookFormats", "ImageIO"]),
    ],
    swiftLanguageModes: [.v6]
)

