import LookModel

extension AutoCorrection {
    /// What the plan does at one stage, in that stage's own unit, as reports show it.
    public func amount(of stage: CorrectionPreset.Strength) -> (value: Double, unit: String) {
        switch stage {
        case .exposure: (exposure.stops, "EV")
        case .levels: (levels.white - levels.black, "range")
        case .whiteBalance: (whiteBalance.corrected.magnitude, "log chroma")
        case .contrast: (contrast.amount, "S-curve")
        case .vibrance: (vibrance.amount, "saturation")
        }
    }
}
