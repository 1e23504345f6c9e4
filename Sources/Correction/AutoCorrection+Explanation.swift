import CorrectionModel
import Foundation
import LookCore

extension AutoCorrection {
    /// One line per correction: the model's estimate, its confidence and the amount applied, and the measured
    /// inputs of the rest (`correct --explain`).
    public var explanation: [String] {
        guard settings.enabled else { return ["auto correction: off"] }
        return (shoot.map { [$0.summary] } ?? []) + stageExplanation
    }

    private var stageExplanation: [String] {
        if let neutral = whiteBalance.neutral {
            let g = whiteBalance.gains
            return [String(format: "white balance: %@ → gains (%.3f, %.3f, %.3f)%@", neutral.summary, g.x, g.y, g.z,
                           neutral.target == nil ? "" : "; exposure set by it")] + Array(modelExplanation.dropFirst())
        }
        return modelExplanation
    }

    /// Whether the veil removed is one the photo's shoot shares (then only its followers are budgeted).
    private var sharedVeil: Bool { (shoot?.shoot.veil ?? 0) > 0 }

    private var modelExplanation: [String] {
        func c(_ v: LogChroma?) -> String { v.map { String(format: "(%+.3f, %+.3f)", $0.red, $0.blue) } ?? "none" }
        let wb = whiteBalance, s = settings, e = exposure
        return [
            String(format: "white balance %.0f%%: model cast log(R/G, B/G) %@, spread %.3f → confidence %.2f%@; "
                   + "skin %@%@ → applied %.0f%%: gains (%.3f, 1, %.3f)", s.whiteBalance, c(wb.estimate), wb.spread,
                   wb.confidence, wb.colour < 1 ? String(format: " (colour %.2f)", wb.colour) : "", c(wb.skin),
                   wb.brightAchromatic.map { ", white backdrop " + c($0) } ?? "", 100 * wb.amount, wb.gains.x,
                   wb.gains.z),
            String(format: "levels %.0f%%: black p0.5 %.4f, veil %.4f → black %.4f%@%@; white p99.5 %.3f → %.3f",
                   s.levels, levels.measuredBlack, levels.veil, levels.black,
                   levels.airlight == SIMD3(1, 1, 1) ? "" : String(
                       format: " (airlight of the shoot's light: channels × (%.3f, %.3f, %.3f))", levels.airlight.x,
                       levels.airlight.y, levels.airlight.z),
                   levels.kept < 1 ? String(format: " (%@ kept at %.0f%%: the move %@ may make is %.1f ΔE00)",
                                            sharedVeil ? "its contrast and vibrance" : "veil, contrast and vibrance",
                                            100 * levels.kept, sharedVeil ? "contrast and vibrance"
                                                : "a veil without confidence", AutoCorrection.unvouchedBudget) : "",
                   levels.measuredWhite, levels.white),
            String(format: "exposure %.0f%%: key %.3f; model estimate %+.2f EV, spread %.2f → confidence %.2f; "
                   + "faces %@ → applied %+.2f EV", s.exposure, e.key, e.estimate, e.spread, e.confidence,
                   e.faceKey.map { key in
                       e.facesAsLit ? String(format: "key %.3f, lit %@ than the frame: as lit", key,
                                             key < AutoCorrection.naturalFaceKey.lowerBound ? "brighter" : "darker")
                           : String(format: "key %.3f (%+.2f EV)", key, e.faceStops)
                   } ?? "none", e.stops),
            String(format: "contrast %.0f%%: spread %.1f stops → S-curve %.3f", s.contrast, contrast.spreadStops,
                   contrast.amount),
            String(format: "vibrance %.0f%%: mean saturation %.3f → %+.3f%@", s.vibrance, vibrance.meanSaturation,
                   vibrance.amount, vibrance.protectSkin ? " (skin protected)" : ""),
        ]
    }
}

/// One photo's evidence for its shoot's estimate (`correct --shoot`).
public typealias ShootPhoto = PhotoEvidence
/// A shoot's estimate, as the application layer names it (it does not import the model).
public typealias ShootPlan = ShootEstimate

/// What `--explain` and `--json` say of a photo corrected as part of a shoot: the shoot's estimate and confidence,
/// and the photo's own estimate beside it.
public struct ShootReport: Sendable, Equatable, Codable {
    enum CodingKeys: String, CodingKey { case shoot, ownCast = "own_cast", ownExposure = "own_exposure", group }

    /// The shoot's estimate.
    public var shoot: ShootEstimate
    /// The photo's own cast estimate, as the illuminant log(R/G), log(B/G) (the white balance's `estimate`).
    public var ownCast: LogChroma
    /// The photo's own exposure estimate (stops).
    public var ownExposure: Double
    /// With `--shoot-gap`, which shoot the photo was pooled in: its folder, time span and camera.
    @NullEncoded public var group: String? = nil

    init(shoot: ShootEstimate, own: CorrectionEstimate) {
        self.shoot = shoot
        ownCast = LogChroma(red: -own.cast.x, blue: -own.cast.y)
        ownExposure = own.exposure
    }

    /// One line for `--explain`.
    public var summary: String {
        let s = shoot
        return "shoot of \(s.photos) (" + (group.map { "\($0); " } ?? "")
            + String(format: "as %.1f independent scenes; %.1f photos for the cast, %.1f for "
                      + "exposure): cast log(R/G, B/G) (%+.3f, %+.3f), spread %.3f, photos' disagreement %.3f → "
                      + "confidence %.2f; exposure %+.2f EV, spread %.2f, disagreement %.2f → confidence %.2f; this "
                      + "photo alone: cast (%+.3f, %+.3f), exposure %+.2f EV", s.independentPhotos,
                      s.castPhotos, s.exposurePhotos, -s.cast.x, -s.cast.y, s.castSpread, s.castDisagreement,
                      s.castAmount, s.exposure, s.exposureSpread, s.exposureDisagreement, s.exposureAmount,
                      ownCast.red, ownCast.blue, ownExposure)
            + (s.veil > 0 ? String(format: "; a veil every photo shares: %.4f, airlight (%.3f, %.3f, %.3f) "
                                   + "(removed in place of each photo's own)", s.veil, s.airlight.x, s.airlight.y,
                                   s.airlight.z) : "")
    }
}
