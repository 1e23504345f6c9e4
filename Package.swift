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
        .library(name: "ColorManagement", targets: ["ColorManagement"]),
        .library(name: "LookCatalog", targets: ["LookCatalog"]),
        .library(name: "PluginHost", targets: ["PluginHost"]),
        .library(name: "FaceDetection", targets: ["FaceDetection"]),
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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
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
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .target(name: "ImageIO", dependencies: ["CPNGShim", "CJPEGShim", "CTIFF", "CWebP", "CHeif"]),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        .target(name: "ColorManagement", dependencies: ["CLCMS2", "LookCore"]),
        .target(name: "LookFormats", dependencies: ["LookCore", "ImageIO"]),
        // dlib's pkg-config file carries its include path and -ldlib to CFaceDetect; SwiftPM drops the .so paths
        // it also lists, so CFaceDetect names LAPACK and BLAS itself (dlib's templates call dgesvd_ and friends).
        .systemLibrary(
            name: "CDlib",
            pkgConfig: "dlib-1",
            providers: [.apt(["libdlib-dev", "libblas-dev", "liblapack-dev"])]
        ),
        // dlib's detector is header templates compiled here: at SwiftPM's debug -O0 it ran 67× slower
        // (7.6 s instead of 113 ms CPU on a 1600-pixel copy), so the
        // wrapper is always optimised.
        .target(name: "CFaceDetect", dependencies: ["CDlib"],
                cxxSettings: [.unsafeFlags(["-O2"])],
                linkerSettings: [.linkedLibrary("lapack"), .linkedLibrary("blas")]),
        .target(name: "FaceDetection", dependencies: ["CFaceDetect"]),
        .target(
            name: "LookCatalog",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "CCrypto", "YAMLScreen",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Refuses YAML that would make Yams take exponential time or expand without bound, before it composes.
        // CYaml is the libyaml Yams builds; the dependency on Yams brings its module.
        .target(name: "YAMLScreen", dependencies: [.product(name: "Yams", package: "Yams")]),
        // Page generation for `gallery` and `compose --preview`: HTML, CSS and JS as Swift strings; no SQL, no codecs.
        .target(name: "LookGallery"),
        .target(
            name: "LookEngine",
            dependencies: [
                "LookCore", "LookFormats", "ImageIO", "PluginHost", "LookGallery", "FaceDetection", "ColorManagement",
                "YAMLScreen", .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The only layer that joins catalog and engine; the studio's actions live here.
        .target(name: "Workflows", dependencies: ["LookCatalog", "LookEngine", "PluginHost", "ImageIO", "LookCore",
                                                  "LookFormats"]),
        // The studio's local web server (Hummingbird): HTTP, JSON API over Workflows, page assets; no SQL, no codecs.
        .target(name: "Studio", dependencies: [
            "Workflows", "LookEngine", "LookCatalog",
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
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
                "LookCore", "LookFormats", "ImageIO", "LookEngine", "PluginHost", "LookCatalog", "LookGallery",
                "ColorManagement", "LookBench", "Studio", "Workflows",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LookCoreTests", dependencies: ["LookCore"]),
        .testTarget(name: "FaceDetectionTests", dependencies: ["FaceDetection", "ImageIO"]),
        .testTarget(name: "LookFormatsTests", dependencies: ["LookFormats", "LookCore", "ImageIO"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "CTIFF"]),
        .testTarget(name: "ColorManagementTests", dependencies: ["ColorManagement", "LookCore"]),
        .testTarget(name: "LookCatalogTests", dependencies: ["LookCatalog", "LookCore", "LookFormats", "ImageIO"]),
        .testTarget(name: "LookEngineTests", dependencies: ["LookEngine", "LookCore", "LookFormats", "ImageIO", "PluginHost",
                                                            "LookGallery", "ColorManagement"]),
        .testTarget(name: "LookGalleryTests", dependencies: ["LookGallery"]),
        .testTarget(name: "YAMLScreenTests", dependencies: ["YAMLScreen"]),
        .testTarget(name: "CLITests", dependencies: ["lookstudio", "LookCore", "LookFormats", "ImageIO", "ColorManagement"]),
        .testTarget(name: "PluginHostTests", dependencies: ["PluginHost", "LookCore"]),
        .testTarget(name: "PluginsTests", dependencies: ["PluginHost"]),
        .testTarget(name: "StudioTests", dependencies: ["Studio", "Workflows", "lookstudio"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

