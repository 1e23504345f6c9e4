import ColorManagement
import Correction
import Extraction
import Foundation
import LookCatalog
import LookCore
import LookFormats
import LookModel
import Scenes

/// A look resolved for a run; `guid` is nil for a LUT file, `strength` is set for a scene's default.
public struct ChosenLook: Sendable {
    /// The catalog GUID (nil for a LUT file).
    public let guid: String?
    /// The look's name (a LUT file's file name).
    public let name: String
    /// The look's cube.
    public let cube: ColorCube
    /// The scene's default strength, for a scene's default look.
    public let strength: Double?
    /// The space the look was authored in.
    public let workingSpace: ColorProfile
    /// For a look extracted from photo pairs, the colours they showed (where it is not extrapolated).
    public var shownColours: ShownColours?
}

extension ChosenLook {
    /// A catalog look as every run uses it (`apply --look`, `correct`, the embedding API): its cube, the space it
    /// was authored in and, for an extracted look, the colours its pairs showed.
    init(record: LookRecord, in catalog: Catalog, strength: Double? = nil) throws {
        self.init(guid: record.guid, name: record.name, cube: try catalog.cube(record), strength: strength,
                  workingSpace: try LookSpaces.profile(of: record),
                  shownColours: LookExtraction.shownColours(of: record))
    }
}

/// Where each image's creative look comes from: one explicit look, or its scene's default.
public struct LookPlan: Sendable {
    /// The look given by `--look` or `--lut`, for every image.
    public var explicit: ChosenLook?
    /// Each scene's default look, by label.
    public var sceneDefaults: [SceneLabel: ChosenLook] = [:]
    /// Each scene's automatic-correction preset, by label (a missing scene gets every correction at 100).
    public var presets: [Int: CorrectionPreset] = [:]
    /// `--scene-looks`: apply a detected scene's default look whatever the detection's confidence.
    public var sceneLooksAlways = false

    /// The look for an image of scene `label`, and the scene defaults `CorrectionParams` merges with the flags.
    /// `confidence` is the detection's (nil: the scene was given, not guessed); a scene's default look applies
    /// only from `SceneDetector.confidentLook` on, or with `sceneLooksAlways`, since a guess must not paint a
    /// creative grade on a photo. `withheld` says why a scene's look was left out.
    public func look(for label: SceneLabel?, confidence: Double? = nil)
        -> (look: ChosenLook?, defaults: SceneDefaults, withheld: String?) {
        if let explicit { return (explicit, SceneDefaults(), nil) }
        guard let label, let chosen = sceneDefaults[label] else { return (nil, SceneDefaults(), nil) }
        if let confidence, confidence < SceneDetector.confidentLook, !sceneLooksAlways {
            let text = String(format: "%.2f", confidence)
            return (nil, SceneDefaults(), "scene look \(chosen.name) not applied: detection confidence \(text) < "
                    + "\(SceneDetector.confidentLook) (--scene-looks applies it)")
        }
        return (chosen, SceneDefaults(lutOutputGuid: chosen.guid, lutOutputStrength: chosen.strength), nil)
    }

    /// The automatic-correction preset for an image of scene `label` (every correction at 100 without one), and
    /// why it was held back. Like a scene's look, a scene's pushes (strengths over 100, a white backdrop) need the
    /// scene given or detected from `SceneDetector.confidentLook` on: below it only the preset's restraints apply.
    public func preset(for label: SceneLabel?, confidence: Double?) -> (preset: CorrectionPreset, heldBack: String?) {
        let preset = label.flatMap { presets[$0.rawValue] } ?? CorrectionPreset()
        return Self.gate(preset, scene: label, confidence: confidence)
    }

    /// `preset` as a detection of `confidence` may use it (nil: the scene was given), with the reason when held back.
    public static func gate(_ preset: CorrectionPreset, scene: SceneLabel?, confidence: Double?)
        -> (preset: CorrectionPreset, heldBack: String?) {
        guard let confidence, confidence < SceneDetector.confidentLook else { return (preset, nil) }
        let restrained = preset.restraintsOnly
        guard restrained != preset, let scene else { return (preset, nil) }
        return (restrained, "only the preset's restraints: detection confidence "
                + String(format: "%.2f", confidence) + " < \(SceneDetector.confidentLook) (--scene \(scene.rawValue) "
                + "applies it whole)")
    }
}

/// A run's adjustments of its creative look, each nil where the scene (or the look) decides.
public struct LookTrims: Sendable, Hashable {
    /// Look strength in percent, 0…200.
    public var strength: Double?
    /// Look contrast trim, −100…100.
    public var contrast: Double?
    /// Look saturation trim, −100…100.
    public var saturation: Double?

    /// Trims as given (nil: not given).
    public init(strength: Double? = nil, contrast: Double? = nil, saturation: Double? = nil) {
        self.strength = strength
        self.contrast = contrast
        self.saturation = saturation
    }

    /// Throws unless every trim given is in its range, naming it.
    public func validate() throws {
        try CorrectionParams(scene: nil, defaults: SceneDefaults(), overrides: overrides(strength: 100)).validate()
    }

    /// The overrides of the scene defaults these trims make at overall `strength`, with the pre-look cube.
    func overrides(strength: Double, preLook: ColorCube? = nil) -> CorrectionOverrides {
        CorrectionOverrides(strength: strength, preLook: preLook, lutOutputStrength: self.strength,
                            lookContrast: contrast, lookSaturation: saturation)
    }
}

/// What a `correct` run asks for as its creative look.
public enum LookChoice: Sendable, Hashable {
    /// Each image's scene default (from the catalog), or only `scene`'s when the scene is fixed.
    case sceneDefaults
    /// A catalog look by GUID, GUID prefix or name.
    case catalog(String)
    /// A LUT file; the catalog is never opened.
    case file(String)
    /// No creative look.
    case none
}

extension Workspace {
    /// Resolves the looks of a run before any output exists. The catalog is opened only when needed, so a LUT-file
    /// run never touches it, and read-only, so a batch's processes share it without locks. `needPresets: false`
    /// (automatic correction off) skips reading the shipped presets for LUT-file runs.
    public func lookPlan(_ choice: LookChoice, scene: SceneLabel?, needPresets: Bool = true) throws -> LookPlan {
        if case .file(let path) = choice {
            let loaded = try LUTFormat.readCube(path: path)
            for warning in loaded.file.warnings { note("warning: \(path): \(warning)") }
            let name = URL(fileURLWithPath: path).lastPathComponent
            return LookPlan(explicit: ChosenLook(guid: nil, name: name, cube: loaded.cube,
                                                 strength: nil, workingSpace: ColorProfile(.sRGB)),
                            presets: needPresets ? try seedPresets() : [:])
        }
        let catalog = try openCatalogForReading()
        let records = try catalog.scenes()
        var presets: [Int: CorrectionPreset] = [:]
        for record in records { presets[record.label] = record.correction }
        switch choice {
        case .none, .file:
            return LookPlan(explicit: nil, presets: presets)
        case .catalog(let reference):
            return LookPlan(explicit: try ChosenLook(record: try catalog.resolveLook(reference), in: catalog),
                            presets: presets)
        case .sceneDefaults:
            var defaults: [SceneLabel: ChosenLook] = [:]
            if let scene, !records.contains(where: { $0.label == scene.rawValue }) {
                note("warning: scene \(scene.rawValue) is not in the catalog \(catalog.path): no default look")
            }
            for record in records {
                guard let label = SceneLabel(rawValue: record.label), scene == nil || scene == label,
                      let guid = record.defaultLookGuid else { continue }
                defaults[label] = try ChosenLook(record: try catalog.resolveLook(guid), in: catalog,
                                                 strength: Double(record.defaultLookStrength))
            }
            return LookPlan(explicit: nil, sceneDefaults: defaults, presets: presets)
        }
    }

    /// Scene presets from the shipped Catalog/scenes.yaml (for LUT-file runs, which never open the catalog).
    func seedPresets() throws -> [Int: CorrectionPreset] {
        guard let dir = CatalogLocation.findSeed(explicit: nil, environment: ProcessInfo.processInfo.environment)
        else { return [:] }
        var presets: [Int: CorrectionPreset] = [:]
        for scene in try Seed.loadScenes(from: dir) { presets[scene.label] = scene.correction ?? CorrectionPreset() }
        return presets
    }
}
