import Correction
import Extraction
import ImageIO
@testable import ImageMetadata
import LookCatalog
import LookFormats
import PluginHost
import Testing
import Workflows

/// The engine's and the catalog's messages name no command-line option; the remedy is classified once, and each
/// front end words it (issue 54: library errors speak of values, the CLI maps them to its flags).
@Suite struct RemedyTests {
    static let cases: [(error: any Error, remedy: Remedy)] = [
        (ImageIOError.tooManyPixels(file: "a.png", width: 4096, height: 4097, limit: 16_777_216), .raisePixelLimit),
        (ImageIOError.sideOverLimit(file: "a.heic", detail: "Security limit exceeded", maxSide: 40),
         .raisePixelLimit),
        (ExtractionError.unreadable(file: "b.png", cause: .tooManyPixels(file: "b.png", width: 3, height: 2, limit: 5)),
         .raisePixelLimit),
        (MetadataError(file: "a.jpg", reason: "This does not look like a TIFF image"), .stripMetadata),
        (CatalogError.notSQLite(path: "/tmp/x.sqlite"), .otherCatalog),
        (CatalogError.cannotWrite(path: "/ro/c.sqlite", folder: "/ro", creating: true), .otherCatalog),
        (CatalogError.cannotWrite(path: "/ro/c.sqlite", folder: "/ro", creating: false), .otherCatalog),
        (CatalogError.missing(path: "/tmp/none.sqlite"), .createCatalog(path: "/tmp/none.sqlite")),
        (CatalogError.damaged(path: "/tmp/c.sqlite", "page 3 is never used"), .recoverCatalog),
        (CatalogError.lookUsed(guid: "G", name: "Warm", sceneLabels: [10], recipeUsers: []), .forceRemoval),
        (CatalogError.lookInUse(guid: "G", name: "Warm", sceneLabels: [10]), .forceRemoval),
        (CatalogError.lookNotFound("warm"), .listLooks),
        (CorrectionError.lookMissing(guid: "G"), .listLooks),
        (PluginHostError.unknownAdjustment(id: "wb.tempreature", known: ["wb.temperature"]), .listAdjustments),
        (LookFormatsError(file: "g.cc", "an ASC CDL is not a LUT file: store it as a look", storesAsLook: true),
         .importAsLook(file: "g.cc")),
        (CatalogError.sceneNotFound(42), .listScenes),
        (CatalogError.versionNotFound(guid: "G", version: 9, available: [1, 2]), .listVersions(guid: "G")),
        (CatalogError.recoveryTargetExists(path: "/tmp/new.sqlite"), .newRecoveryTarget),
        (CatalogError.needsMigration(path: "/tmp/c.sqlite", pending: ["v9"]), .migrateCatalog),
    ]

    @Test("each error a setting of the user's gets past has its remedy, and its message names no option or command")
    func classified() {
        for (error, remedy) in Self.cases {
            #expect(Remedy(error) == remedy, "\(error)")
            let message = "\(error)"
            #expect(!message.contains("--") && !message.contains("lookstudio ") && !message.contains("$LOOKSTUDIO"),
                    "\(message)")
        }
    }

    @Test("a setting out of its range is said in words by the engine; its name, value and range reach the front end")
    func settingOutOfRange() throws {
        let error = CorrectionError.outOfRange(name: "white-balance", value: 250, range: 0...200)
        #expect(error.description == "white balance 250 is out of range: use 0…200")
        let setting = try #require(SettingOutOfRange(error))
        #expect(setting.name == "white-balance" && setting.value == 250 && setting.range == 0...200)
        #expect(SettingOutOfRange(CatalogError.sceneNotFound(1)) == nil)
    }

    @Test("a plugin time limit out of range names the variable it came from, or none when the caller set it")
    func pluginTimeout() {
        #expect(PluginHostError.invalidTimeout("0", from: nil).description
                == "the plugin time limit must be a number of seconds above 0 and at most 86400, such as 30 or 2.5 "
                + "(got \"0\")")
        #expect(PluginHostError.invalidTimeout("soon", from: "LOOKSTUDIO_PLUGIN_TIMEOUT").description
                .hasPrefix("LOOKSTUDIO_PLUGIN_TIMEOUT must be a number of seconds above 0"))
    }

    @Test("errors the user's settings cannot get past have no remedy")
    func noRemedy() {
        #expect(Remedy(ImageIOError.notPNG(file: "a.png")) == nil)
        #expect(Remedy(ExtractionError.unreadable(file: "a.png", cause: .notPNG(file: "a.png"))) == nil)
        #expect(Remedy(CatalogError.ambiguousLook("wa", candidates: ["Warm", "Wash"])) == nil)
        #expect(Remedy(CatalogError.readOnly(path: "/tmp/c.sqlite")) == nil)
        #expect(Remedy(PluginHostError.invalidTimeout("0", from: nil)) == nil)
        #expect(Remedy(LookFormatsError(file: "a.cube", line: 3, "expected 3 numbers, got 2")) == nil)
    }
}
