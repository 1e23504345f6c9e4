import LookModel

/// A scene's correction preset as the catalog keeps it (its JSON form is `CorrectionPreset`'s `Codable`).
extension CorrectionPreset {
    /// Checks every strength is 0…200 before a preset is stored or seeded, naming it as `scenes` prints it.
    func validateForCatalog() throws(CatalogError) {
        if let (strength, value) = outOfRange { throw .correctionOutOfRange(name: strength.key, value: value) }
    }
}
