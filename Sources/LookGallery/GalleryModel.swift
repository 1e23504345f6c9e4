import Foundation

/// A preview image in the gallery folder: the JPEG an `<img>` shows, and the script that hands its bytes to the
/// page as a data URI, so canvases can read its pixels from `file://` without browser flags.
public struct PreviewRef: Sendable, Equatable, Codable {
    /// Cache key (unique per look content, photo content and size); also the name the script registers under.
    public var key: String
    /// The JPEG, relative to the gallery folder.
    public var file: String
    /// The data-URI script, relative to the gallery folder.
    public var script: String
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A preview from its parts.
    public init(key: String, file: String, script: String, width: Int, height: Int) {
        self.key = key
        self.file = file
        self.script = script
        self.width = width
        self.height = height
    }
}

/// A photo the looks are shown on, with its preview through no look (the "before" of every card).
public struct GalleryPhoto: Sendable, Equatable, Codable {
    /// File name shown under the previews.
    public var name: String
    /// The photo at the gallery size, unchanged.
    public var before: PreviewRef

    /// A photo from its parts.
    public init(name: String, before: PreviewRef) {
        self.name = name
        self.before = before
    }
}

/// A scene description that applies a look by default.
public struct GalleryScene: Sendable, Equatable, Codable {
    /// Integer scene label.
    public var label: Int
    /// Display name.
    public var name: String
    /// Default strength, percent.
    public var strength: Int

    /// A scene from its parts.
    public init(label: Int, name: String, strength: Int) {
        self.label = label
        self.name = name
        self.strength = strength
    }
}

/// What a card says about a look: everything but pixels.
public struct GalleryLookInfo: Sendable, Equatable, Codable {
    /// Identifier used for the look's page and anchors: the GUID for catalog looks, `step-K` for recipe steps.
    public var id: String
    /// Uppercase UUID, when the look is in the catalog.
    public var guid: String?
    /// Display name.
    public var name: String
    /// Free text.
    public var description: String
    /// Tags, in display order.
    public var tags: [String]
    /// Entries per cube axis.
    public var cubeSize: Int
    /// Where the look came from (png, cube, 3dl, recipe, shipped, step).
    public var source: String
    /// The original file name, if any.
    public var sourceFile: String?
    /// When the look entered the catalog, if known (sorting by date uses it).
    public var createdAt: Date?
    /// Scenes that apply this look by default.
    public var scenes: [GalleryScene]
    /// The recipe the look was built from, if any.
    public var recipeYAML: String?

    /// A look description from its parts.
    public init(id: String, guid: String?, name: String, description: String = "", tags: [String] = [],
                cubeSize: Int, source: String, sourceFile: String? = nil, createdAt: Date? = nil,
                scenes: [GalleryScene] = [], recipeYAML: String? = nil) {
        self.id = id
        self.guid = guid
        self.name = name
        self.description = description
        self.tags = tags
        self.cubeSize = cubeSize
        self.source = source
        self.sourceFile = sourceFile
        self.createdAt = createdAt
        self.scenes = scenes
        self.recipeYAML = recipeYAML
    }
}

/// Output of a cube along its grey axis: what each channel does to the input grey `inputs[i]`.
public struct GreyCurves: Sendable, Equatable, Codable {
    /// Input grey levels, 0…1, increasing.
    public var inputs: [Double]
    /// Red output at each input.
    public var red: [Double]
    /// Green output at each input.
    public var green: [Double]
    /// Blue output at each input.
    public var blue: [Double]

    /// Curves from samples of equal length.
    public init(inputs: [Double], red: [Double], green: [Double], blue: [Double]) {
        self.inputs = inputs
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// One hue × saturation slice at a fixed value (HSV), before and through the cube: two small images.
public struct CubeSlice: Sendable, Equatable, Codable {
    /// HSV value of the slice, 0…1.
    public var value: Double
    /// The slice's input colours, relative to the gallery folder.
    public var beforeFile: String
    /// The same colours through the cube.
    public var afterFile: String

    /// A slice from its parts.
    public init(value: Double, beforeFile: String, afterFile: String) {
        self.value = value
        self.beforeFile = beforeFile
        self.afterFile = afterFile
    }
}

/// Everything one card and one look page show.
public struct GalleryLook: Sendable, Equatable, Codable {
    /// The look's description.
    public var info: GalleryLookInfo
    /// The look on each photo, in the document's photo order.
    public var previews: [PreviewRef]
    /// Grey-axis curves of the cube.
    public var curves: GreyCurves
    /// Hue/saturation slices of the cube.
    public var slices: [CubeSlice]

    /// A look from its parts.
    public init(info: GalleryLookInfo, previews: [PreviewRef], curves: GreyCurves, slices: [CubeSlice]) {
        self.info = info
        self.previews = previews
        self.curves = curves
        self.slices = slices
    }

    /// The look's page, relative to the gallery folder.
    public var pagePath: String { Self.pagePath(of: info) }

    /// The page of the look `info` describes, relative to the gallery folder; known before the look is rendered.
    public static func pagePath(of info: GalleryLookInfo) -> String { "looks/\(GalleryPage.fileSafe(info.id)).html" }
}

/// A whole gallery: the photos, the looks, and for a recipe preview the recipe and its composition report.
public struct GalleryDocument: Sendable, Equatable {
    /// What the cards are.
    public enum Kind: String, Sendable, Equatable {
        /// Catalog looks, first sorted by name.
        case looks
        /// A recipe's steps, first shown in recipe order.
        case recipeSteps
    }

    /// Page heading.
    public var title: String
    /// The photos, in order.
    public var photos: [GalleryPhoto]
    /// The looks (or recipe steps), in their initial order.
    public var looks: [GalleryLook]
    /// `compose --explain`'s report, for a recipe preview.
    public var report: String?
    /// Looks or recipe steps.
    public var kind: Kind

    /// A document from its parts.
    public init(title: String, photos: [GalleryPhoto], looks: [GalleryLook], report: String? = nil,
                kind: Kind = .looks) {
        self.title = title
        self.photos = photos
        self.looks = looks
        self.report = report
        self.kind = kind
    }
}
