import Correction
import Foundation
import ImageIO
import Scenes

/// What the user says is neutral for a `correct` run: a point on the one photo (`--neutral`), measured on it, or a
/// grey card measured once and applied to every photo (`--grey-card`); with an optional grey level (`--grey-level`).
public enum NeutralChoice: Sendable, Equatable {
    /// A point on the photo being corrected, and the linear level to bring it to (nil: keep its own).
    case point(NeutralPoint, target: Double?)
    /// The card's reference, already measured.
    case card(NeutralReference)

    /// The choice `correct --neutral TEXT` or `--grey-card TEXT` (at most one given) makes for `files`, the card
    /// read and measured here, once; nil when neither is given. `check` only parses, for argument validation.
    public static func from(neutral: String?, greyCard: String?, target: Double?, files: [String], maxPixels: Int,
                            check: Bool = false) throws -> NeutralChoice? {
        if let neutral {
            let point: NeutralPoint
            do {
                point = try NeutralPoint.parse(neutral, flag: "--neutral")
            } catch {
                throw WorkflowError.neutralArgument(error.description)
            }
            if !check, files.count != 1 {
                throw WorkflowError.neutralArgument(
                    "--neutral points at one photo, and \(files.count) were given; for a shoot under one light, use "
                    + "--grey-card with a photo of a grey card")
            }
            return .point(point, target: target)
        }
        guard let greyCard else { return nil }
        var file = greyCard, point: NeutralPoint?
        // Split at the last `@` only when a point follows it: a file name may hold an `@` of its own.
        if let at = greyCard.lastIndex(of: "@"), greyCard[greyCard.index(after: at)...].first?.isNumber == true {
            do {
                point = try NeutralPoint.parse(String(greyCard[greyCard.index(after: at)...]), flag: "--grey-card")
            } catch {
                throw WorkflowError.neutralArgument(error.description)
            }
            file = String(greyCard[..<at])
        }
        if check { return nil }
        return try card(path: file, at: point, target: target, maxPixels: maxPixels)
    }

    /// Reads the grey card in `path`, at `point` or, without one, wherever the largest uniform near-neutral region is.
    /// Refuses, naming the card, a photo that cannot be read, a point off it, and a region clipped, too dark or not
    /// found.
    public static func card(path: String, at point: NeutralPoint?, target: Double?, maxPixels: Int) throws
        -> NeutralChoice {
        let shown = ImageFiles.displayPath(of: path)
        let analysis: SceneAnalysis
        do {
            analysis = try SceneAnalysis(path: path, maxPixels: maxPixels, detectFaces: false)
        } catch {
            throw WorkflowError.greyCard("grey card \(shown): \(error)")
        }
        let (w, h) = (analysis.statistics.sourceWidth, analysis.statistics.sourceHeight)
        do {
            if let point {
                let measured = try NeutralMeasure.measure(point, in: analysis.preview, sourceWidth: w, sourceHeight: h,
                                                          what: "grey card \(shown)")
                return .card(NeutralReference(kind: .card, file: shown, x: point.x, y: point.y,
                                              radius: point.radius(width: w, height: h), measured: measured,
                                              target: target))
            }
            let (found, measured) = try GreyCardFinder.find(in: analysis.preview, sourceWidth: w, sourceHeight: h,
                                                            what: shown)
            return .card(NeutralReference(kind: .card, file: shown, x: found.x, y: found.y,
                                          radius: found.radius(width: w, height: h), found: true, measured: measured,
                                          target: target))
        } catch {
            throw WorkflowError.greyCard(error.description.hasPrefix("grey card") ? error.description
                                         : "grey card \(error.description)")
        }
    }

    /// The reference for one analysed photo: the card's, or the point measured on `analysis`.
    func reference(on analysis: SceneAnalysis, file: String) throws(CorrectionError) -> NeutralReference {
        switch self {
        case .card(let reference):
            return reference
        case .point(let point, let target):
            let (w, h) = (analysis.statistics.sourceWidth, analysis.statistics.sourceHeight)
            let measured = try NeutralMeasure.measure(point, in: analysis.preview, sourceWidth: w, sourceHeight: h,
                                                      what: "--neutral on \(ImageFiles.displayPath(of: file))")
            return NeutralReference(kind: .point, x: point.x, y: point.y, radius: point.radius(width: w, height: h),
                                    measured: measured, target: target)
        }
    }
}
