import LookCore
import LookModel

extension CorrectionPreset {
    /// One line: `auto on; exposure 100 levels 100 white_balance 100 contrast 100 vibrance 100; keep_white`.
    var summary: String {
        var text = "auto \(enabled ? "on" : "off"); "
            + Strength.allCases.map { "\($0.key) \(TextNumber.format(self[$0]))" }.joined(separator: " ")
        let flags = [keepWhite ? "keep_white" : nil, protectSkin ? "protect_skin" : nil].compactMap { $0 }
        if !flags.isEmpty { text += "; " + flags.joined(separator: ", ") }
        return text
    }
}
