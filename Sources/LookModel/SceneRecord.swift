/// A scene description: the label a detector gives an image, and the look applied to that scene by default.
public struct SceneRecord: Sendable, Equatable, Codable {
    /// Uppercase UUID, fixed by the seed.
    public var guid: String
    /// The integer scene label (unique).
    public var label: Int
    /// Display name.
    public var name: String
    /// Workflows the scene belongs to (Universal, Pro); stored as a JSON array.
    public var workflows: [String]
    /// Free text.
    public var description: String
    /// The look applied by default to this scene, if any.
    public var defaultLookGuid: String?
    /// Strength of the default look, 0…200.
    public var defaultLookStrength: Int
    /// The scene's automatic-correction preset (a JSON column).
    public var correction: CorrectionPreset

    /// Creates a scene description.
    public init(guid: String, label: Int, name: String, workflows: [String], description: String,
                defaultLookGuid: String?, defaultLookStrength: Int, correction: CorrectionPreset = CorrectionPreset()) {
        self.guid = guid
        self.label = label
        self.name = name
        self.workflows = workflows
        self.description = description
        self.defaultLookGuid = defaultLookGuid
        self.defaultLookStrength = defaultLookStrength
        self.correction = correction
    }
}
