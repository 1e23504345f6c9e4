import LookCore
import LookModel

/// A scene's correction preset as the catalog keeps it (its JSON form is `CorrectionPreset`'s `Codable`).
extension CorrectionPreset {
    /// Checks every strength is 0…200 before a preset is stored or seeded, naming it as `scenes` prints it.
    func validateForCatalog() throws(CatalogError) {
        if let (strength, value) = outOfRange { throw .correctionOutOfRange(name: strength.key, value: value) }
    }

    /// One line: `auto on; exposure 100 levels 100 white_balance 100 contrast 100 vibrance 100; keep_white`.
    public var summary: String {
        var text = "auto \(enabled ? "on" : "off"); "
            + Strength.allCases.map { "\($0.key) \(TextNumber.format(self[$0]))" }.joined(separator: " ")
        let flags = [keepWhite ? "keep_white" : nil, protectSkin ? "protect_skin" : nil].compactMap { $0 }
        if !flags.isEmpty { text += "; " + flags.joined(separator: ", ") }
        return text
    }
}
