import Foundation
import LookModel
import Recipes

/// A photo the studio shows, as the API lists it: addressed by `id`, never by path.
public struct StudioPhotoInfo: Sendable, Equatable, Codable {
    /// Index in the session's list (the only way the API names a photo).
    public var id: Int
    /// File name without folders, for display.
    public var name: String
    /// Size of the decoded photo.
    public var width: Int
    public var height: Int
}

/// A catalog look as the studio's look list shows it.
public struct StudioLook: Sendable, Equatable, Codable {
    public var guid: String
    public var name: String
    public var tags: [String]
    public var size: Int
    public var sourceFormat: String
    /// The recipe YAML a baked look was composed from, or nil.
    public var recipe: String?
}

/// A scene with its default look, for the "set as scene default" menu.
public struct StudioScene: Sendable, Equatable, Codable {
    public var label: Int
    public var name: String
    public var defaultLook: String?
    public var defaultStrength: Int
}

/// Which automatic corrections to put before the recipe (each on = the scene preset's amount, off = 0): a JSON
/// object with one boolean per correction, keyed by its name (`exposure`, `whiteBalance`, …); a missing key is on.
public struct StudioAutoSwitches: Sendable, Equatable, Codable {
    /// The corrections switched off.
    public var off: Set<CorrectionPreset.Strength> = []

    /// All on.
    public init() {}

    /// Whether the correction is on.
    public subscript(stage: CorrectionPreset.Strength) -> Bool {
        get { !off.contains(stage) }
        set { if newValue { off.remove(stage) } else { off.insert(stage) } }
    }

    public init(from decoder: any Decoder) throws {
        let flags = try decoder.singleValueContainer().decode([String: Bool].self)
        for stage in CorrectionPreset.Strength.allCases where flags[stage.name] == false { off.insert(stage) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: CorrectionPreset.Strength.allCases.map {
            ($0.name, self[$0])
        }))
    }
}

/// What the studio asks to compose: a recipe, an overall strength, and optionally the photo's automatic correction.
public struct StudioComposeRequest: Sendable, Equatable, Codable {
    public var recipe: Recipe
    /// Percent, 0…200, scaling the whole chain against identity.
    public var strength: Double?
    /// Output cube size (default 33, enough for a preview).
    public var size: Int?
    /// With `auto`, the photo whose automatic correction runs first.
    public var photo: Int?
    public var auto: StudioAutoSwitches?

    public init(recipe: Recipe, strength: Double? = nil, size: Int? = nil, photo: Int? = nil,
                auto: StudioAutoSwitches? = nil) {
        self.recipe = recipe
        self.strength = strength
        self.size = size
        self.photo = photo
        self.auto = auto
    }
}

/// The automatic correction of one photo, as `correct --explain` reports it.
public struct StudioExplanation: Sendable, Equatable, Codable {
    /// One automatic correction: its setting in percent (from the scene preset) and the amount computed.
    public struct Correction: Sendable, Equatable, Codable {
        public var name: String
        public var setting: Double
        public var amount: Double
        public var unit: String
    }
    public var scene: Int
    public var sceneName: String
    public var confidence: Double
    public var reason: String
    public var faces: Int
    public var corrections: [Correction]
    /// The `correct --explain` lines.
    public var lines: [String]
}

/// A studio save that stored nothing because the catalog holds the same cube already (the API answers 409).
public struct StudioSameCube: Error, Equatable, Sendable, CustomStringConvertible {
    /// GUID of the look that stores the cube.
    public var guid: String
    /// Its name.
    public var name: String
    /// True when that look is the one given a new version: the cube is its current version already.
    public var isCurrentVersion: Bool

    public var description: String {
        isCurrentVersion
            ? "the new cube is the same as the current version of \"\(name)\" (\(guid)); nothing was saved"
            : "the same cube is already stored as \"\(name)\" (\(guid)); nothing was saved"
    }
}


/// A request body that carries a recipe: every recipe the studio's API takes is one.
public protocol StudioRecipeBody: Decodable, Sendable {
    /// The recipe.
    var recipe: Recipe { get }
}

extension StudioRecipeBody {
    /// Why the recipe may not be composed on the server: a `lut` step names a file there, whose errors would tell
    /// the client whether it exists and quote its lines. Nil when the recipe names no file.
    public var fileStepProblem: String? {
        guard let offset = recipe.steps.firstIndex(where: { if case .lut = $0.operation { true } else { false } })
        else { return nil }
        return "step \(offset + 1): lut steps name files on the server, which the studio does not read; import the "
            + "LUT as a look (lookstudio import FILE) and use it by GUID or name"
    }
}

extension StudioComposeRequest: StudioRecipeBody {}

/// `POST /api/looks`: a recipe to store as a new look.
public struct StudioSaveRequest: StudioRecipeBody {
    public var name: String
    public var tags: [String]?
    public var recipe: Recipe
}

/// `POST /api/looks/GUID/version`: a recipe to store as a look's next version.
public struct StudioVersionRequest: StudioRecipeBody {
    public var recipe: Recipe
}

/// `POST /api/looks/GUID/export`: an export target (as `export --for` takes), strength and size.
public struct StudioExportRequest: Decodable, Sendable {
    public var target: String
    /// Percent, 0…200 (default 100).
    public var strength: Double?
    /// Points per axis (default: the target's).
    public var size: Int?
}

/// What a studio export wrote: every file, main file first, as names and bytes.
public struct StudioExport: Sendable, Equatable, Encodable {
    /// One file.
    public struct File: Sendable, Equatable, Encodable {
        /// Its name (no folder).
        public var name: String
        /// Its contents, base64 in JSON.
        public var data: [UInt8]

        enum CodingKeys: String, CodingKey { case name, data }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(Data(data).base64EncodedString(), forKey: .data)
        }
    }
    public var files: [File]
    public var warnings: [String]
    public var notes: [String]
}
