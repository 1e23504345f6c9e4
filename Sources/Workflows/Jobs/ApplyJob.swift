import ColorManagement
import Extraction
import Foundation
import ImageIO
import ImageMetadata
import LookCore
import LookFormats
import Recipes
import Rendering

/// `apply`: one look — from the catalog, a LUT file or a recipe composed into one cube — applied to an image file,
/// colour-managed, streamed, written atomically (or over the input, keeping a backup).
public struct ApplyJob: Sendable {
    /// Where the look comes from.
    public enum Source: Sendable, Equatable {
        /// A catalog look: GUID, prefix, name or `…@N`; its working space is the catalog's.
        case catalog(String)
        /// A LUT file (`.cube`, `.3dl`, CLF or a cube PNG; `layout` nil detects a PNG's); authored in sRGB.
        case file(String, layout: CubeLayout? = nil)
        /// A recipe (YAML), composed into one cube at its size.
        case recipe(String)
    }

    /// What to apply, to what, and how to write it.
    public struct Request: Sendable {
        /// The look.
        public var source: Source
        /// The image to read.
        public var input: String
        /// The image to write; nil replaces the input (in place).
        public var output: String?
        /// Strength in percent, 0…200, against the identity cube.
        public var strength: Double = 100
        /// Cube interpolation.
        public var interpolation: Interpolation = .tetrahedral
        /// Images with more pixels are refused.
        public var maxPixels = PNGReader.defaultMaxPixels
        /// Output colour and intent; the working space is the look's.
        public var color = ColorSettings()
        /// Lossy quality, TIFF compression, WebP lossless.
        public var encoder = EncoderOptions()
        /// Which metadata is carried from input to output.
        public var metadata = MetadataOptions()
        /// In place: keep the original as NAME.orig.EXT.
        public var keepBackup = true

        /// A request to apply `source` to `input`, writing `output` (nil: in place).
        public init(source: Source, input: String, output: String?) {
            self.source = source
            self.input = input
            self.output = output
        }
    }

    /// What an apply did.
    public struct Applied: Sendable {
        /// Seconds spent decoding, applying and encoding.
        public var timings: ImagePipeline.Timings?
        /// What the pipeline and the metadata carrier could not keep, and the LUT file's tolerated deviations.
        public var warnings: [String]
        /// In place: where the original was kept.
        public var backup: String?
        /// For a look extracted from photo pairs: its name and the share of the image's pixels in colours the
        /// pairs did not show, when it is large enough that the look is extrapolated there.
        public var extrapolated: (look: String, share: Double)?
    }

    /// The request.
    public let request: Request

    /// A job for `request`.
    public init(_ request: Request) { self.request = request }

    /// Resolves the look, then reads, applies and writes the image.
    public func run(in workspace: Workspace) throws -> Applied {
        let output = request.output ?? request.input
        try OutputSafety.checkNotFolder(output)
        let inPlace = request.output == nil
        var inputs = inPlace ? [] : [request.input]
        let recipe: Recipe?
        switch request.source {
        case .recipe(let path):
            recipe = try Recipe.load(path: path)
            inputs += [path] + (recipe?.lutFiles ?? [])
        case .file(let path, _):
            recipe = nil
            inputs.append(path)
        case .catalog:
            recipe = nil
        }
        try OutputSafety.check(inputs: inputs, output: output)
        let look = try resolve(recipe: recipe, in: workspace)
        guard (0...200).contains(request.strength) else { throw WorkflowError.badStrength(request.strength) }
        let cube = try look.cube.scaled(strength: Float(request.strength / 100))
        var options = ImagePipeline.Options()
        options.maxPixels = request.maxPixels
        options.color = request.color
        options.color.workingSpace = look.workingSpace
        options.encoder = request.encoder
        var timed: ImagePipeline.Timings?
        let (notes, backup) = try Folders.withParents(of: output) {
            try InPlace.replace(output, backup: inPlace && request.keepBackup) {
                try MetadataCarrier.write(from: request.input, to: output, options: request.metadata) { temporary in
                    timed = try ImagePipeline.apply(cube, interpolation: request.interpolation, input: request.input,
                                                    output: temporary, options: options)
                }
            }
        }
        return Applied(timings: timed, warnings: look.warnings + (timed?.warnings ?? []) + notes, backup: backup,
                       extrapolated: look.extrapolated)
    }

    /// The look's cube, working space, reader warnings and, for an extracted look, how much of the input it has
    /// to extrapolate (read before the output is written, which may replace the input).
    private func resolve(recipe: Recipe?, in workspace: Workspace) throws
        -> (cube: ColorCube, workingSpace: ColorProfile, warnings: [String], extrapolated: (look: String, share: Double)?) {
        switch request.source {
        case .recipe:
            return (try workspace.compose(recipe!), ColorProfile(.sRGB), [], nil)
        case .file(let path, let layout):
            let loaded = try LUTFormat.readCube(path: path, layout: layout)
            return (loaded.cube, ColorProfile(.sRGB), loaded.file.warnings.map { "\(path): \($0)" }, nil)
        case .catalog(let reference):
            let catalog = try workspace.openCatalog()
            let record = try catalog.resolveLook(reference)
            // Advisory: an input the census cannot read is left to the pipeline, whose error every apply gives.
            let share = try? LookExtraction.unshownShare(of: request.input, look: record, maxPixels: request.maxPixels)
            let extrapolated = (share ?? nil).flatMap { $0 >= LookExtractor.thinCoverage ? (record.name, $0) : nil }
            let look = try ChosenLook(record: record, in: catalog)
            return (look.cube, look.workingSpace, [], extrapolated)
        }
    }
}
