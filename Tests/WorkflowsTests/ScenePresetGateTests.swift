import LookModel
import Testing
import Workflows

@Suite("A guessed scene's correction preset: restraints only below confidence 0.75")
struct ScenePresetGateTests {
    @Test("restraintsOnly keeps what holds a correction back and drops what pushes it")
    func restraints() {
        let underwater = CorrectionPreset(whiteBalance: 200, vibrance: 150)
        #expect(underwater.restraintsOnly == CorrectionPreset())
        let night = CorrectionPreset(exposure: 50, levels: 50, whiteBalance: 60, contrast: 0, vibrance: 50,
                                     protectSkin: true)
        #expect(night.restraintsOnly == night, "every field of a restrained preset stays")
        let backdrop = CorrectionPreset(contrast: 0, vibrance: 50, keepWhite: true)
        #expect(backdrop.restraintsOnly == CorrectionPreset(contrast: 0, vibrance: 50))
        let off = CorrectionPreset(enabled: false, whiteBalance: 180)
        #expect(off.restraintsOnly == CorrectionPreset(enabled: false))
    }

    @Test("the gate: a given scene and a confident detection get the preset whole, a weak one its restraints")
    func gate() {
        let preset = CorrectionPreset(whiteBalance: 200, vibrance: 150)
        let underwater = SceneLabel(rawValue: 91)
        #expect(LookPlan.gate(preset, scene: underwater, confidence: nil) == (preset, nil) as (CorrectionPreset, String?))
        #expect(LookPlan.gate(preset, scene: underwater, confidence: 0.75).preset == preset)
        let weak = LookPlan.gate(preset, scene: underwater, confidence: 0.6)
        #expect(weak.preset == CorrectionPreset())
        #expect(weak.heldBack?.contains("0.60 < 0.75") == true && weak.heldBack?.contains("--scene 91") == true,
                "\(weak.heldBack ?? "nil")")
        let gentle = CorrectionPreset(vibrance: 70, protectSkin: true)
        #expect(LookPlan.gate(gentle, scene: SceneLabel(rawValue: 1), confidence: 0.55) == (gentle, nil)
                as (CorrectionPreset, String?), "a preset of restraints only is not held back, nor reported")
    }
}
