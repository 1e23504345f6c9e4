import LookCore
import LookFormats
import LookModel
import PluginHost
import Recipes

/// How a CDL's numbers are rendered, as `grade.cdl`'s `style` names them.
public enum CDLStyle: String, Sendable, CaseIterable {
    /// ASC CDL 1.2: clamped to 0…1 before the power and after the saturation.
    case asc
    /// OpenColorIO's `CDL_NO_CLAMP`, its default for `.cc`, `.ccc` and `.cdl` files: no clamps, the power on values
    /// ≥ 0 only.
    case noClamp = "no-clamp"
}

/// An ASC CDL correction as a recipe of one `grade.cdl` step, and back: the one mapping import and export share,
/// so a correction imported and exported again has the same Floats.
enum CDLRecipe {
    /// The adjustment a correction becomes.
    static let adjustment = "grade.cdl"

    /// `grade.cdl`'s parameters for the correction's numbers.
    static func parameters(_ correction: CDLCorrection, style: CDLStyle) -> [String: ParameterSetting] {
        ["slope": colour(correction.slope), "offset": colour(correction.offset), "power": colour(correction.power),
         "saturation": .number(decimal(correction.saturation)), "style": .choice(style.rawValue)]
    }

    /// The recipe of one `grade.cdl` step with the correction's numbers; the step's line is the correction's.
    static func recipe(_ correction: CDLCorrection, style: CDLStyle, name: String, size: Int, file: String)
        -> Recipe {
        let step = RecipeStep(.adjust(id: adjustment, params: parameters(correction, style: style)),
                              line: correction.line)
        return Recipe(name: name, size: size, steps: [step], fileName: file)
    }

    /// The correction a look stands for, and its style, when its recipe is exactly one `grade.cdl` step at
    /// strength 100; otherwise ``WorkflowError/notACDL(look:reason:)`` says what the look is instead.
    ///
    /// A step at another strength is refused rather than folded: `x + s·(cdl(x) − x)` is itself a CDL only when
    /// power and saturation are 1 and nothing clamps, too narrow a case to be worth a second rule.
    static func correction(of record: LookRecord) throws -> (correction: CDLCorrection, style: CDLStyle) {
        func refuse(_ reason: String) -> WorkflowError { .notACDL(look: record.name, reason: reason) }
        guard let yaml = record.recipeYAML else {
            let file = record.sourceFile.map { " (\($0))" } ?? ""
            throw refuse(record.sourceFormat == "shipped" ? "ships with LookStudio as a colour function"
                         : "was imported from a \(record.sourceFormat) file\(file)")
        }
        let steps = try Recipe.parse(yaml, fileName: "recipe of \(record.name)").steps
        guard steps.count == 1, let step = steps.first, case .adjust(adjustment, let params) = step.operation else {
            let ids = steps.map(\.id).joined(separator: ", ")
            throw refuse("was composed from a recipe of \(steps.count) step\(steps.count == 1 ? "" : "s") (\(ids))")
        }
        guard step.strength == 100 else {
            throw refuse("is a \(adjustment) step at strength \(TextNumber.format(step.strength)) % (a CDL has no "
                         + "strength, and a blend toward a CDL is rarely one)")
        }
        var correction = CDLCorrection(id: record.name)
        var style = CDLStyle.asc
        for (name, setting) in params {
            switch (name, setting) {
            case ("slope", .color(let v)): correction.slope = SIMD3(Float(v.x), Float(v.y), Float(v.z))
            case ("offset", .color(let v)): correction.offset = SIMD3(Float(v.x), Float(v.y), Float(v.z))
            case ("power", .color(let v)): correction.power = SIMD3(Float(v.x), Float(v.y), Float(v.z))
            case ("saturation", .number(let v)): correction.saturation = Float(v)
            case ("style", .choice(let option)) where CDLStyle(rawValue: option) != nil:
                style = CDLStyle(rawValue: option) ?? style
            default:
                throw refuse("has a \(adjustment) step whose \(name) is \(setting.shape)")
            }
        }
        if !record.description.isEmpty { correction.descriptions = [record.description] }
        return (correction, style)
    }

    /// What a `.cc` cannot say about how the look renders it.
    static func styleNote(_ style: CDLStyle) -> String {
        switch style {
        case .asc:
            return "a .cc does not record the style: this look renders the CDL as asc (ASC CDL 1.2, clamped to "
                + "0…1); OpenColorIO reads a .cc as no-clamp unless told otherwise"
        case .noClamp:
            return "a .cc does not record the style: this look renders the CDL as no-clamp, as OpenColorIO does; "
                + "import it back with --cdl-style no-clamp"
        }
    }

    private static func colour(_ v: SIMD3<Float>) -> ParameterSetting {
        .color(SIMD3(decimal(v.x), decimal(v.y), decimal(v.z)))
    }

    /// The Float's shortest decimal (1.1, not 1.100000023841858) when it converts back to the same Float, else the
    /// Float exactly: the recipe reads as written in the file, and export gives back the Floats that were imported.
    static func decimal(_ v: Float) -> Double {
        if let short = Double("\(v)"), Float(short) == v { return short }
        return Double(v)
    }
}
