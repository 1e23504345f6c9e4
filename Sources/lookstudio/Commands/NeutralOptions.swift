import ArgumentParser
import Foundation
import Workflows

/// `correct`'s neutral references: a point the user knows is neutral, or a grey card shot for the whole shoot.
struct NeutralOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Make this region of the photo neutral: pixel column and row of the photo as "
                               + "displayed (after its EXIF rotation), radius default 1 % of the long side. One photo "
                               + "only.", valueName: "x,y[,radius]"))
    var neutral: String?

    @Option(help: ArgumentHelp("A photo of a grey card under the shoot's light: its gains are measured once and "
                               + "applied to every photo. The card is found as the largest uniform near-neutral "
                               + "region, or give it as CARD@X,Y[,RADIUS].", valueName: "card[@x,y[,radius]]"))
    var greyCard: String?

    @Option(help: ArgumentHelp("With --neutral or --grey-card, also set exposure: the reference becomes this grey "
                               + "(linear reflectance in percent, 1…100; 18 is a standard grey card).",
                               valueName: "percent"))
    var greyLevel: String?

    func validate() throws {
        if neutral != nil && greyCard != nil {
            throw ValidationError("give --neutral (a point on one photo) or --grey-card (a card for every photo), "
                                  + "not both")
        }
        if greyLevel != nil && neutral == nil && greyCard == nil {
            throw ValidationError("--grey-level sets the level of a neutral reference; give --neutral X,Y or "
                                  + "--grey-card CARD with it")
        }
        do {
            _ = try NeutralChoice.from(neutral: neutral, greyCard: greyCard, target: try target(), files: [],
                                       maxPixels: 0, check: true)
        } catch let error as WorkflowError {
            throw ValidationError(error.description)
        }
    }

    /// The grey level as linear luminance (0.18 for 18 %), nil when not given.
    func target() throws -> Double? {
        guard let greyLevel else { return nil }
        let text = greyLevel.hasSuffix("%") ? String(greyLevel.dropLast()) : greyLevel
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, (1...100).contains(value)
        else {
            throw ValidationError("--grey-level \(greyLevel): expected a percentage 1…100, e.g. 18 or 18%")
        }
        return value / 100
    }

    /// The choice for the run; the card, if any, is read and measured here, once, before any output exists.
    func choice(files: [String], maxPixels: Int) throws -> NeutralChoice? {
        do {
            return try NeutralChoice.from(neutral: neutral, greyCard: greyCard, target: try target(), files: files,
                                          maxPixels: maxPixels)
        } catch WorkflowError.neutralArgument(let message) {
            throw ValidationError(message)
        }
    }
}
