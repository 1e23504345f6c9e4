// swift-tools-version:6.0
import PackageDescription

/// Hot code — the per-pixel and per-entry loops, the fit's solver, dlib's templates, the plugins — is optimised in
/// debug builds too (the measured reasons are at each target below), but only when the build runs with
/// LOOKSTUDIO_OPTIMISED_DEBUG=1, which the Makefile exports for every target (`make build`, `make test`, …; export
/// it in your shell for a bare `swift build`). The flags are `unsafeFlags`, and SwiftPM refuses the products of a
/// package fetched by URL when a target they pull in has any: a package that depends on this one sees no such
/// variable, gets no flags, and builds LookStudioKit like any other dependency (its `-c release` builds are
/// optimised throughout anyway).
let optimisedDebug = Context.environment["LOOKSTUDIO_OPTIMISED_DEBUG"] == "1"
let optimisedSwift: [SwiftSetting] = optimisedDebug ? [.unsafeFlags(["-O"])] : []
let optimisedC: [CSetting] = optimisedDebug ? [.unsafeFlags(["-O2"])] : []
let optimisedCXX: [CXXSetting] = optimisedDebug ? [.unsafeFlags(["-O2"])] : []

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
        .library(name: "Recipes", targets: ["Recipes"]),
        .library(name: "Workflows", targets: ["Workflows"]),
        .library(name: "Export", targets: ["Export"]),
        // The engine for other programs (docs/API.md): the Swift façade, and the C library over it that
        // `make install` puts in PREFIX/lib as liblookstudio.so beside include/lookstudio.h and lookstudio.pc.
        .library(name: "LookStudioKit", targets: ["LookStudioKit"]),
        .library(name: "CLookStudio", type: .dynamic, targets: ["CLookStudio"]),
        // Built-in plugins: each a shared library that `swift build` puts next to the `lookstudio` executable.
        .library(name: "TonePlugin", type: .dynamic, targets: ["TonePlugin"]),
        .library(name: "WhiteBalancePlugin", type: .dynamic, targets: ["WhiteBalancePlugin"]),
        .library(name: "ColorPlugin", type: .dynamic, targets: ["ColorPlugin"]),
        .library(name: "BlendPlugin", type: .dynamic, targets: ["BlendPlugin"]),
        .library(name: "GradePlugin", type: .dynamic, targets: ["GradePlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Already in the graph through Hummingbird; named because the studio's HTTP channel takes its `Logger`.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        // C and system-library targets (Sources/C/…): the libraries LookStudio stands on, and its C kernels.
        // What the processor runs, asked once: every kernel chosen at run time dispatches on it.
        .target(name: "CCPUFeatures", path: "Sources/C/CCPUFeatures"),
        .target(name: "CLUTKernels", dependencies: ["CCPUFeatures"], path: "Sources/C/CLUTKernels"),
        // Which file the running code was loaded from (the executable, or liblookstudio.so inside another program).
        .target(name: "CCodeLocation", path: "Sources/C/CCodeLocation"),
        // The look fit's solver kernels (AVX2 + FMA chosen at run time). Optimised in debug too, as Extraction is.
        .target(name: "CFitKernels", dependencies: ["CCPUFeatures"], path: "Sources/C/CFitKernels",
                cSettings: optimisedC),
        .systemLibrary(name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/C/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CPNGShim", dependencies: ["CPNG", "CZlib"], path: "Sources/C/CPNGShim"),
        .systemLibrary(name: "CJPEG", path: "Sources/C/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], path: "Sources/C/CJPEGShim"),
        .systemLibrary(name: "CCrypto", path: "Sources/C/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CTIFF", path: "Sources/C/CTIFF", pkgConfig: "libtiff-4",
                       providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/C/CWebP", pkgConfig: "libwebpmux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", path: "Sources/C/CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLCMS2", path: "Sources/C/CLCMS2", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),
        // In-flight temporary files and the async-signal-safe SIGINT/SIGTERM handler that removes them.
        .target(name: "CTempRegistry", path: "Sources/C/CTempRegistry"),
        // EXIF, XMP and IPTC carried from input to output with exiv2 (C++ behind a C interface).
        .target(name: "CMetadata", path: "Sources/C/CMetadata", linkerSettings: [.linkedLibrary("exiv2")]),
        // dlib's pkg-config file carries its include path and -ldlib to CFaceDetect; SwiftPM drops the .so paths
        // it also lists, so CFaceDetect names LAPACK and BLAS itself (dlib's templates call dgesvd_ and friends).
        .systemLibrary(name: "CDlib", path: "Sources/C/CDlib", pkgConfig: "dlib-1",
                       providers: [.apt(["libdlib-dev", "libblas-dev", "liblapack-dev"])]),
        // dlib's detector is header templates compiled here: at SwiftPM's debug -O0 it ran 67× slower
        // (7.6 s instead of 113 ms CPU on a 1600-pixel copy), so the wrapper is optimised in debug too.
        .target(name: "CFaceDetect", dependencies: ["CDlib", "CCPUFeatures"], path: "Sources/C/CFaceDetect",
                cxxSettings: optimisedCXX,
                linkerSettings: [.linkedLibrary("lapack"), .linkedLibrary("blas")]),

        // Data and pure colour math.
        .target(name: "LookModel"),
        // SHA-256 over libcrypto, in one place for the catalog, the correction model and extraction's provenance.
        .target(name: "Hashing", dependencies: ["CCrypto"]),
        // The per-entry loops every cube passes through (validation, identity, sampling, the plugin host's output
        // check, the composer) are optimised in debug too: at SwiftPM's debug -O0 a 33³ two-step compose took 19 ms
        // instead of 1.5 ms, which alone used a fifth of the studio's 100 ms slider budget in `make test`.
        .target(name: "LookCore", dependencies: ["CLUTKernels", "CCodeLocation"], swiftSettings: optimisedSwift),
        // Files: images, LUT formats, colour profiles, faces.
        // PixelBuffer, the PNG codec and the file plumbing every codec shares: all a LUT file needs, so LookFormats
        // links libpng and zlib but none of the photo codecs.
        .target(name: "Pixels", dependencies: ["CPNGShim", "CTempRegistry"]),
        .target(name: "ImageIO", dependencies: ["Pixels", "CJPEGShim", "CTIFF", "CWebP", "CHeif"]),
        // Metadata carried beside the codecs: exiv2 copies EXIF, XMP and IPTC into each written file.
        .target(name: "ImageMetadata", dependencies: ["CMetadata", "ImageIO"]),
        .target(name: "LookFormats", dependencies: ["LookCore", "Pixels"]),
        .target(name: "ColorManagement", dependencies: ["CLCMS2", "LookCore", "ImageIO"]),
        .target(name: "FaceDetection", dependencies: ["CFaceDetect", "LookModel"]),
        // Refuses YAML that would make Yams take exponential time or expand without bound, before it composes.
        // CYaml is the libyaml Yams builds; the dependency on Yams brings its module.
        .target(name: "YAMLScreen", dependencies: [.product(name: "Yams", package: "Yams")]),
        // Plugins: the C ABI and the host that loads them.
        .target(name: "PluginABI"),
        .target(name: "PluginHost", dependencies: ["PluginABI", "LookCore"], swiftSettings: optimisedSwift),

        // Application formats for exported looks: one file per target behind one registry; no catalog.
        .target(name: "Export",
                dependencies: ["LookCore", "LookFormats", "ImageIO", "ColorManagement", "CCrypto", "CZlib"]),

        // The engine, one module per job; none of them knows the catalog.
        .target(name: "Recipes", dependencies: [
            "LookCore", "Pixels", "LookFormats", "PluginHost", "YAMLScreen", .product(name: "Yams", package: "Yams"),
        ], swiftSettings: optimisedSwift),
        .target(name: "Scenes", dependencies: ["LookModel", "LookCore", "ImageIO", "ColorManagement", "FaceDetection"]),
        .target(name: "Correction", dependencies: [
            "LookModel", "LookCore", "ImageIO", "Scenes", "CorrectionModel",
        ]),
        // Page generation for `gallery` and `compose --preview`: HTML in Swift, the page's script and style sheet
        // embedded from Resources/ (see EmbedAssets below); no SQL, no codecs.
        .target(name: "LookGallery", exclude: ["Resources"], plugins: ["EmbedAssets"]),
        .target(name: "Rendering", dependencies: [
            "LookModel", "LookCore", "ImageIO", "ColorManagement", "LookGallery",
        ]),
        // Fitting a look to before/after pairs (docs/EXTRACT.md). Optimised in debug too: the fit visits every pixel
        // several times and at SwiftPM's debug -O0 its tests took 196 s instead of 13 s.
        .target(name: "Extraction", dependencies: ["LookCore", "ImageIO", "ColorManagement", "CFitKernels"],
                swiftSettings: optimisedSwift),

        // Persistence.
        .target(
            name: "LookCatalog",
            dependencies: [
                "LookModel", "LookCore", "LookFormats", "ImageIO", "Hashing", "YAMLScreen",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),

        // The application layer, the only one that joins catalog and engine: the use cases every front end calls.
        .target(name: "Workflows", dependencies: [
            "LookModel", "LookCore", "LookFormats", "ImageIO", "ColorManagement", "PluginHost", "Recipes", "Scenes",
            "Correction", "Rendering", "LookGallery", "LookCatalog", "ImageMetadata", "Extraction", "Export",
            "Hashing", "YAMLScreen", .product(name: "Yams", package: "Yams"),
        ]),
        // The embedding API: the Swift façade other packages depend on, the C ABI's header (a C target, so the
        // exports below are checked against it) and the C ABI itself, `@_cdecl` functions over the façade.
        .target(name: "LookStudioKit",
                dependencies: ["Workflows", "ImageIO", "ColorManagement", "LookCore", "LookModel"]),
        .target(name: "CLookStudioHeader", path: "Sources/C/CLookStudioHeader"),
        .target(name: "CLookStudio", dependencies: ["LookStudioKit", "CLookStudioHeader"]),
        .target(name: "LookBench", dependencies: [
            "LookCore", "LookFormats", "ImageIO", "ColorManagement", "PluginHost", "Recipes", "Scenes", "Correction",
            "Rendering", "LookGallery", "LookCatalog", "Workflows",
            "Extraction", "LookModel",
        ]),
        .executableTarget(
            name: "lookstudio",
            dependencies: [
                "LookModel", "LookCore", "Pixels", "LookFormats", "ImageIO", "ImageMetadata", "ColorManagement",
                "PluginHost", "Rendering", "Workflows", "LookBench", "Studio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The learned correction's inference (docs/CORRECTION.md); the model file is this module's resource.
        .target(name: "CorrectionModel", dependencies: ["Hashing", "LookCore"],
                resources: [.copy("Resources/correction-model.lscm")]),

        // The studio's local web server (Hummingbird): HTTP, JSON API over Workflows, the page's HTML, JS and CSS
        // embedded from Resources/ (see EmbedAssets below); no SQL, no codecs.
        .target(name: "Studio", dependencies: [
            "Workflows",
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            // The HTTP/1 layer itself, to see a request's raw target before Hummingbird converts it (see
            // StudioHTTPChannel.swift).
            .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["Resources"], plugins: ["EmbedAssets"]),

        // The web pages' files compiled in as string constants (`EmbeddedAssets`) by a build-tool plugin, not
        // shipped as SwiftPM `resources:`: on Linux those are a bundle folder found beside the executable at run
        // time, which a `lookstudio` copied alone loses. Nor `.embedInCode`: its byte-array literal took 6 s to
        // compile for studio.js alone (14 s optimised), a string 0.3 s. (Plugins/ holds the colour plugins.)
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["EmbedAssetsTool"],
                path: "BuildTools/EmbedAssets"),
        .executableTarget(name: "EmbedAssetsTool", path: "BuildTools/EmbedAssetsTool"),

        // Built-in plugins, optimised in debug as LookCore is: the composer calls them on every lattice entry.
        .target(name: "TonePlugin", dependencies: ["PluginABI"], path: "Plugins/Tone",
                publicHeadersPath: ".", cSettings: optimisedC, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "WhiteBalancePlugin", dependencies: ["PluginABI"], path: "Plugins/WhiteBalance",
                publicHeadersPath: ".", cSettings: optimisedC, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "ColorPlugin", dependencies: ["PluginABI"], path: "Plugins/Color",
                publicHeadersPath: ".", cSettings: optimisedC, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "BlendPlugin", dependencies: ["PluginABI"], path: "Plugins/Blend", cSettings: optimisedC),
        // The grading set (curves, hue curves, lift/gamma/gain, ASC CDL, channel mixer, split tone): C, ABI v2.
        .target(name: "GradePlugin", dependencies: ["PluginABI"], path: "Plugins/Grade",
                publicHeadersPath: ".", cSettings: optimisedC, linkerSettings: [.linkedLibrary("m")]),

        // What the test targets share: the runner for the built CLI, the fixtures' location.
        .target(name: "LookStudioTestSupport", dependencies: ["Pixels"], path: "Tests/LookStudioTestSupport"),
        .testTarget(name: "LookCoreTests", dependencies: ["LookCore", "CCPUFeatures"]),
        .testTarget(name: "FaceDetectionTests", dependencies: ["FaceDetection", "LookModel", "ImageIO"]),
        .testTarget(name: "LookFormatsTests", dependencies: ["LookFormats", "LookCore", "ImageIO"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "Pixels", "CTIFF"]),
        .testTarget(name: "ImageMetadataTests", dependencies: ["ImageMetadata", "ImageIO", "LookStudioTestSupport"]),
        .testTarget(name: "ColorManagementTests", dependencies: ["ColorManagement", "LookCore"]),
        .testTarget(name: "LookCatalogTests", dependencies: ["LookCatalog", "LookStudioTestSupport", "LookCore",
                                                             "LookFormats", "ImageIO", "LookModel", "Hashing",
                                                             .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "RecipesTests", dependencies: ["Recipes", "LookCore", "PluginHost", "ImageIO",
                                                         "LookStudioTestSupport"]),
        .testTarget(name: "ScenesTests", dependencies: ["Scenes", "LookModel", "LookCore", "ImageIO", "FaceDetection"]),
        .testTarget(name: "CorrectionTests", dependencies: ["Correction", "Scenes", "LookModel", "LookCore",
                                                             "LookBench", "ImageIO", "Rendering", "CorrectionModel"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "LookModel", "LookCore", "ImageIO",
                                                            "ColorManagement", "LookGallery", "Recipes", "PluginHost"]),
        .testTarget(name: "WorkflowsTests", dependencies: ["Workflows", "Correction", "Extraction", "LookCatalog",
                                                           "LookCore", "ImageIO", "LookFormats", "LookModel",
                                                           "ImageMetadata", "PluginHost", "LookStudioTestSupport", "Pixels",
                                                           "Rendering", "Scenes"]),
        .testTarget(name: "LookGalleryTests", dependencies: ["LookGallery"]),
        .testTarget(name: "YAMLScreenTests", dependencies: ["YAMLScreen"]),
        .testTarget(name: "CLITests", dependencies: ["lookstudio", "LookStudioTestSupport", "LookCore", "LookFormats",
                                                     "ImageIO", "ColorManagement"]),
        .testTarget(name: "PluginHostTests", dependencies: ["PluginHost", "LookCore", "LookStudioTestSupport"]),
        .testTarget(name: "PluginsTests", dependencies: ["PluginHost", "LookStudioTestSupport"]),
        // Loads libGradePlugin.so itself (dlopen) and reads its v2 descriptor, independent of the host's loader; the
        // composed tests check the same references through the host and the composer.
        .testTarget(name: "GradePluginTests", dependencies: ["PluginABI", "Pixels", "LookStudioTestSupport", "LookCore",
                                                             "PluginHost", "Recipes"]),
        .testTarget(name: "CorrectionModelTests", dependencies: ["CorrectionModel", "Hashing", "ImageIO", "LookCore"]),
        .testTarget(name: "HashingTests", dependencies: ["Hashing"]),
        .testTarget(name: "ExportTests", dependencies: ["Export", "LookCore", "LookFormats", "ImageIO",
                                                        "ColorManagement", "CZlib", "CCrypto", "LookStudioTestSupport"]),
        // The Swift façade and, through the same Swift calls a C program makes, the C API over it.
        .testTarget(name: "LookStudioKitTests", dependencies: ["LookStudioKit", "CLookStudio", "CLookStudioHeader",
                                                               "Workflows", "ImageIO", "LookCore",
                                                               "LookStudioTestSupport"]),
        .testTarget(name: "StudioTests", dependencies: ["Studio", "Workflows", "lookstudio", "LookStudioTestSupport"]),
        .testTarget(name: "ArchitectureTests", dependencies: ["LookStudioTestSupport"]),
        .testTarget(name: "EmbedAssetsToolTests", dependencies: ["EmbedAssetsTool"]),
        .testTarget(name: "ExtractionTests",
                    dependencies: ["Extraction", "LookCore", "LookFormats", "ImageIO", "ColorManagement",
                                   "LookBench"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

