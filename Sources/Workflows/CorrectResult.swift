import Correction
import Extraction
import Foundation
import LookCore
import LookModel

/// What happened to one image: the `correct --json` element.
public struct CorrectResult: Encodable, Sendable {
    /// The input.
    public var file: String
    /// The scene detected or given.
    public var scene: SceneLabel?
    /// The detection's confidence (null with --scene LABEL).
    public var confidence: Double?
    /// Faces found (null with --scene LABEL, which skips the analysis).
    public var faces: Int?
    /// The look applied: GUID (null for a LUT file), name and strength.
    public var lookGuid: String?
    public var lookName: String?
    public var lookStrength: Double?
    /// For a look extracted from photo pairs: the share of this image's pixels in colours the pairs did not show,
    /// where the look is extrapolated (null for other looks).
    public var lookUnshown: Double?
    /// True when a third or more of the image is in colours its extracted look's pairs did not show.
    public var isExtrapolated: Bool { (lookUnshown ?? 0) >= LookExtractor.thinCoverage }
    /// The files written.
    public var outputs: [String] = []
    /// Why the image failed, if it did.
    public var error: String?
    /// Why the scene's default look was not applied (a low-confidence detection), if it was not; not in the JSON.
    public var lookWithheld: String?
    /// Why the scene's correction preset was held back to its restraints (a low-confidence detection); not in the
    /// JSON, whose `auto.settings` shows the preset used.
    public var presetHeldBack: String?
    /// Corrected, skipped (its outputs existed), failed or interrupted; not in the JSON, which predates it.
    public var status: ManifestRecord.Status = .done
    /// The automatic correction's plan (null when the stage is off).
    public var auto: AutoCorrection?
    /// Under `--shoot`, true when no other photo shared the image's shoot, so it was corrected as without
    /// `--shoot`; not in the JSON, whose `auto.shoot` is null for it.
    public var aloneInShoot = false
    /// Seconds spent reading and analysing the image and planning its correction (0 when nothing was analysed),
    /// then rendering every strength; for `--timings`, not in the JSON.
    public var seconds = (analysis: 0.0, render: 0.0)

    /// A result for `file` before anything is known.
    public init(file: String) { self.file = file }

    enum CodingKeys: String, CodingKey {
        case file, scene, sceneName = "scene_name", confidence, faces, lookGuid = "look_guid", lookName = "look_name"
        case lookStrength = "look_strength", lookUnshown = "look_unshown", outputs, error, auto
    }

    // Every key is always present (null when empty), as the JSON contract says.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(scene?.rawValue, forKey: .scene)
        try c.encode(scene?.name, forKey: .sceneName)
        try c.encode(confidence.map { ($0 * 1000).rounded() / 1000 }, forKey: .confidence)
        try c.encode(faces, forKey: .faces)
        try c.encode(lookGuid, forKey: .lookGuid)
        try c.encode(lookName, forKey: .lookName)
        try c.encode(lookStrength, forKey: .lookStrength)
        try c.encode(lookUnshown.map { ($0 * 1000).rounded() / 1000 }, forKey: .lookUnshown)
        try c.encode(outputs, forKey: .outputs)
        try c.encode(error, forKey: .error)
        try c.encode(auto, forKey: .auto)
    }

    /// The `--explain` text for this image.
    public var explanation: String {
        var lines = [file + ":"]
        var sceneText = scene.map { "scene \($0.rawValue) \($0.name)" } ?? "no scene"
        if let confidence { sceneText += String(format: " (confidence %.2f)", confidence) }
        lines.append("  " + sceneText)
        if let presetHeldBack, auto != nil { lines.append("  scene preset: " + presetHeldBack) }
        if aloneInShoot { lines.append("  shoot: the only photo of its shoot, corrected on its own evidence") }
        lines += (auto?.explanation ?? ["auto correction: off"]).map { "  " + $0 }
        lines.append("  look: " + (lookName.map { "\($0) at \(TextNumber.format(lookStrength ?? 100))" } ?? "none")
                     + (lookWithheld.map { " (\($0))" } ?? "")
                     + (lookUnshown.map { String(format: "; %.0f %% of the pixels in colours its pairs did not show",
                                                 $0 * 100) } ?? ""))
        if let error { lines.append("  error: \(error)") }
        return lines.joined(separator: "\n")
    }

    /// The progress line for this image.
    public var line: String {
        switch status {
        case .skipped: return "\(file): skipped, its outputs exist"
        case .interrupted: return "\(file): interrupted; its unfinished output was discarded"
        case .done, .failed: break
        }
        if let error { return "error: \(error)" }
        var sceneText = scene.map { "scene \($0.rawValue) \($0.name)" } ?? "no scene"
        if let confidence { sceneText += String(format: " (%.2f)", confidence) }
        let lookText = lookName.map { "; look \($0) at \(TextNumber.format(lookStrength ?? 100))" }
            ?? "; no look" + (lookWithheld.map { " (\($0))" } ?? "")
        return "\(file) → \(outputs.joined(separator: ", ")) [\(sceneText)\(lookText)]"
    }
}
