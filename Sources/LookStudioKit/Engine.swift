import ImageIO
import LookCore
import Workflows

/// The LookStudio engine: opened once on a catalog, then used from any number of threads — list and find looks,
/// detect once, apply many. What it computes is what the `lookstudio` command writes for the same decoded pixels:
/// `apply(_:to:into:)` without an analysis is `lookstudio apply --look`, with one `lookstudio correct`.
public final class Engine: Sendable {
    /// The engine's session: catalog, look plans and prepared cubes.
    let session: EngineSession

    /// Opens the catalog at `catalog` (nil: `$LOOKSTUDIO_CATALOG`, else the XDG default, as the command line),
    /// read-only; a catalog that does not exist is created and seeded first. Plugins are looked for in
    /// `pluginDirectories`, then `$LOOKSTUDIO_PLUGIN_PATH`, then beside the library.
    public init(catalog: String? = nil, pluginDirectories: [String] = []) throws(LookStudioError) {
        session = try classified { try EngineSession(catalog: catalog, pluginDirs: pluginDirectories) }
    }

    /// The catalog file in use.
    public var catalogPath: String { session.workspace.catalogPath }

    /// The catalog's looks by name (those tagged `tag` when given).
    public func looks(tag: String? = nil) throws(LookStudioError) -> [Look] {
        try classified { try session.looks(tag: tag).map(Look.init) }
    }

    /// The look `reference` names: GUID, GUID prefix, name or `name@N`.
    public func look(_ reference: String) throws(LookStudioError) -> Look {
        try classified { Look(try session.look(reference)) }
    }

    /// Analyses an image: scene, faces, the correction's measurements.
    public func detect(_ image: Image) throws(LookStudioError) -> Analysis {
        try classified { Analysis(analysis: try session.detect(rows: image.rows, color: image.color)) }
    }

    /// Analyses an image file exactly as `lookstudio detect` and `correct` do (a JPEG through a reduced decode).
    public func detect(file: String) throws(LookStudioError) -> Analysis {
        try classified { Analysis(analysis: try session.detect(file: file)) }
    }

    /// Renders `image` into `output` (the same size, channels and bits; `image` itself applies in place) with
    /// `params`: the look alone without an analysis, the correction with one.
    public func apply(_ params: Params, to image: Image, analysis: Analysis? = nil,
                      into output: Image) throws(LookStudioError) {
        let request = try params.request()
        try classified {
            try session.render(request, input: image.rows, color: image.color, analysis: analysis?.analysis,
                               output: output.rows, threads: params.threads)
        }
    }

    /// The one cube `apply` uses for `image` (nil: an untagged sRGB image), resampled to `size` points per axis:
    /// `size³` RGB triples, red fastest, mapping input code values 0…1 to output code values.
    public func cube(_ params: Params, for image: Image? = nil, analysis: Analysis? = nil,
                     size: Int = 33) throws(LookStudioError) -> [Float] {
        let request = try params.request()
        return try classified {
            try session.cube(request, color: image?.color ?? ColorDescription(), analysis: analysis?.analysis,
                             size: size).values
        }
    }
}
