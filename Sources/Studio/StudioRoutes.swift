import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Workflows

/// The page and the JSON API (README, "The studio"): photos and looks are named by index and GUID only.
struct StudioRoutes: Sendable {
    let session: StudioSession
    let token: String
    let port: BoundPort

    func register(on router: Router<BasicRequestContext>) {
        var routes = RouteTable(router: router)
        registerPage(&routes)
        registerPhotos(&routes)
        registerScenes(&routes)
        registerLooks(&routes)
        registerExport(&routes)
        registerCompose(&routes)
        routes.answerOtherMethods()
    }

    /// The page and its assets; the first visit sets the token cookie.
    private func registerPage(_ routes: inout RouteTable) {
        let token = self.token, port = self.port
        routes.get("/") { request, _ in
            var response = Self.bytes(Array(StudioPage.html.utf8), type: "text/html; charset=utf-8")
            // The cookie lets <img> requests carry the token; the page sends it as a header to the API.
            if request.uri.queryParameters.get("token") != nil {
                response.headers[.setCookie] = "\(StudioGuard<BasicRequestContext>.cookieName(port: port.value))="
                    + "\(token); Path=/; HttpOnly; SameSite=Strict"
            }
            return response
        }
        for (path, text) in StudioScript.files {
            routes.get(path) { _, _ in Self.bytes(Array(text.utf8), type: "text/javascript") }
        }
        routes.get("/studio.css") { _, _ in Self.bytes(Array(StudioStyle.css.utf8), type: "text/css") }
    }

    /// The photos: list, drop, previews, thumbnails, the automatic correction's explanation.
    private func registerPhotos(_ routes: inout RouteTable) {
        let session = self.session
        routes.get("/api/photos") { _, _ in try Self.json(session.photoList()) }
        routes.post("/api/photos") { request, _ in
            try await Self.run {
                let limit = StudioSession.maxUploadBytes
                let tooLarge = StudioAPIError("the upload is over the \(limit >> 20) MiB limit", status: .contentTooLarge)
                // A declared length over the limit is refused before any of the body is read.
                if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
                let name = request.headers[HTTPField.Name("X-File-Name")!]?.removingPercentEncoding ?? "dropped"
                // Streamed to the upload folder as it arrives: a 250 MiB photo held whole, then copied twice, took
                // 900 MB.
                let upload = try session.beginUpload(name: name)
                do {
                    for try await buffer in request.body {
                        guard upload.count + buffer.readableBytes <= limit else { throw tooLarge }
                        try buffer.withUnsafeReadableBytes { try upload.append($0) }
                    }
                } catch {
                    upload.cancel()
                    throw error
                }
                return try Self.json(try await Self.offload { try upload.finish() })
            }
        }
        routes.get("/api/photos/:id/preview") { request, context in
            try await Self.run {
                let id = try context.parameters.require("id", as: Int.self)
                let long = try Self.wholeNumber(request, "long") ?? 1600
                let jpeg = try Self.query(request, "format", oneOf: ["png", "jpeg"]) == "jpeg"
                let data = try await Self.offload { try session.previewFile(photo: id, longSide: long, jpeg: jpeg) }
                return Self.bytes(data, type: jpeg ? "image/jpeg" : "image/png")
            }
        }
        routes.get("/api/photos/:id/thumbnail") { _, context in
            try await Self.run {
                let id = try context.parameters.require("id", as: Int.self)
                let data = try await Self.offload {
                    try session.previewFile(photo: id, longSide: StudioSession.thumbnailSide, jpeg: true)
                }
                return Self.bytes(data, type: "image/jpeg")
            }
        }
        routes.get("/api/photos/:id/explain") { _, context in
            try await Self.run {
                let id = try context.parameters.require("id", as: Int.self)
                return try Self.json(try await Self.offload { try session.explain(photo: id) })
            }
        }
        // The neutral eyedropper: u and v are fractions of the photo's width and height as displayed.
        routes.post("/api/photos/:id/neutral") { request, context in
            try await Self.run {
                struct Body: Decodable { var u: Double; var v: Double; var radius: Int? }
                let id = try context.parameters.require("id", as: Int.self)
                let body: Body = try await Self.decode(request)
                return try Self.json(try await Self.offload {
                    try session.neutralBalance(photo: id, u: body.u, v: body.v, radius: body.radius)
                })
            }
        }
    }

    /// The adjustments the plugins offer and the scenes with their default looks.
    private func registerScenes(_ routes: inout RouteTable) {
        let session = self.session
        routes.get("/api/adjustments") { _, _ in try Self.json(session.registry.adjustments) }
        routes.get("/api/scenes") { _, _ in try await Self.run { try Self.json(try session.scenes()) } }
        routes.post("/api/scenes/:label/default") { request, context in
            try await Self.run {
                struct Body: Decodable { var look: String; var strength: Int? }
                let label = try context.parameters.require("label", as: Int.self)
                let body: Body = try await Self.decode(request)
                return try Self.json(try session.setSceneDefault(label: label, guid: body.look,
                                                                 strength: body.strength ?? 100))
            }
        }
    }

    /// The catalog's looks: list, save, thumbnails, rename, versions, tags.
    private func registerLooks(_ routes: inout RouteTable) {
        let session = self.session
        routes.get("/api/looks") { _, _ in try await Self.run { try Self.json(try session.looks()) } }
        routes.post("/api/looks") { request, _ in
            try await Self.run {
                let body: StudioSaveRequest = try await Self.decode(request)
                let look = try await Self.offload {
                    try session.save(recipe: body.recipe, name: body.name, tags: body.tags ?? [])
                }
                return try Self.json(look, status: .created)
            }
        }
        routes.get("/api/looks/:guid/thumbnail") { request, context in
            try await Self.run {
                let guid = try context.parameters.require("guid")
                let photo = try Self.wholeNumber(request, "photo") ?? 0
                let data = try await Self.offload { try session.lookThumbnail(guid: guid, photo: photo) }
                return Self.bytes(data, type: "image/jpeg")
            }
        }
        routes.post("/api/looks/:guid/rename") { request, context in
            try await Self.run {
                struct Body: Decodable { var name: String }
                let guid = try context.parameters.require("guid")
                let body: Body = try await Self.decode(request)
                return try Self.json(try session.rename(guid: guid, to: body.name))
            }
        }
        routes.post("/api/looks/:guid/version") { request, context in
            try await Self.run {
                let guid = try context.parameters.require("guid")
                let body: StudioVersionRequest = try await Self.decode(request)
                let look = try await Self.offload { try session.saveVersion(guid: guid, recipe: body.recipe) }
                return try Self.json(look)
            }
        }
        routes.post("/api/looks/:guid/tags") { request, context in
            try await Self.run {
                struct Body: Decodable { var tags: [String] }
                let guid = try context.parameters.require("guid")
                let body: Body = try await Self.decode(request)
                return try Self.json(try session.setTags(guid: guid, body.tags))
            }
        }
        routes.get("/api/looks/:guid/export") { request, context in
            try await Self.run {
                let guid = try context.parameters.require("guid")
                let format = request.uri.queryParameters.get("format").map { String($0) } ?? "cube"
                let bits = try Self.wholeNumber(request, "bits")
                let file = try await Self.offload { try session.export(guid: guid, format: format, bits: bits) }
                var response = Self.bytes(file.bytes, type: "application/octet-stream")
                response.headers[.contentDisposition] = Self.attachment(file.fileName)
                return response
            }
        }
    }

    /// Looks written as LUT files or for an application target, as `lookstudio export` writes them.
    private func registerExport(_ routes: inout RouteTable) {
        let session = self.session
        routes.get("/api/export-targets") { _, _ in try Self.json(ExportJob.targets) }
        routes.post("/api/looks/:guid/export") { request, context in
            try await Self.run {
                let guid = try context.parameters.require("guid")
                let body: StudioExportRequest = try await Self.decode(request)
                return try Self.json(try await Self.offload { try session.export(guid: guid, body) })
            }
        }
    }

    /// A recipe composed into one cube for the page's preview.
    private func registerCompose(_ routes: inout RouteTable) {
        let session = self.session
        routes.post("/api/compose") { request, _ in
            try await Self.run {
                let format = request.uri.queryParameters.get("format").map { String($0) } ?? "f32"
                let body: StudioComposeRequest = try await Self.decode(request)
                let (cube, data, seconds) = try await Self.offload {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let cube = try session.compose(body)
                    let data = try CubeBytes.encode(cube, format: format)
                    return (cube, data, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
                var response = Self.bytes(data, type: "application/octet-stream")
                response.headers[HTTPField.Name("X-Cube-Size")!] = String(cube.size)
                response.headers[HTTPField.Name("Server-Timing")!] = String(format: "compose;dur=%.1f", seconds * 1000)
                return response
            }
        }
    }

    // MARK: Helpers

    static func bytes(_ data: [UInt8], type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The query item `name` as a whole number, or nil when absent; any other text is refused (400), not ignored.
    static func wholeNumber(_ request: Request, _ name: String) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Int(String(text)) else { throw StudioAPIError("\(name)=\(text): expected a whole number") }
        return value
    }

    /// The query item `name`, one of `choices`, or nil when absent; any other value is refused (400).
    static func query(_ request: Request, _ name: String, oneOf choices: [String]) throws -> String? {
        guard let text = request.uri.queryParameters.get(name).map({ String($0) }) else { return nil }
        guard choices.contains(text) else {
            throw StudioAPIError("\(name)=\(text): use " + choices.joined(separator: " or "))
        }
        return text
    }

    /// Characters RFC 5987 lets `filename*` carry as they are; every other byte of the UTF-8 name is %-encoded.
    static let filenameCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        + "0123456789!#$&+-.^_`|~")

    /// `Content-Disposition` for a download named `name`: header values are ASCII, so `filename` has every other
    /// character as `_` and `filename*` the whole name in UTF-8 (RFC 6266), which browsers prefer.
    static func attachment(_ name: String) -> String {
        let ascii = String(name.unicodeScalars.map { filenameCharacters.contains($0) ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: filenameCharacters) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return bytes(Array(try encoder.encode(value)), type: "application/json", status: status)
    }

    /// Largest JSON body the API reads.
    static let maxJSONBytes = 4 << 20

    /// The request's body; one over `limit` bytes is refused with 413 naming the limit (`what`: "the upload").
    static func body(of request: Request, upTo limit: Int, what: String) async throws -> ByteBuffer {
        let tooLarge = StudioAPIError("\(what) is over the \(limit >> 20) MiB limit", status: .contentTooLarge)
        // A declared length over the limit is refused before any of the body is read.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
    }

    static func decode<T: Decodable>(_ request: Request) async throws -> T {
        let body = try await Self.body(of: request, upTo: maxJSONBytes, what: "the JSON body")
        let value = try StudioJSON.decode(T.self, from: Data(body.readableBytesView))
        // Every recipe the API takes arrives here, so this is the one check that no request makes the server open a
        // file it names (README: files are never named by path), before anything composes the recipe.
        if let body = value as? any StudioRecipeBody, let problem = body.fileStepProblem {
            throw StudioAPIError(problem)
        }
        return value
    }

    /// Runs a handler, turning its errors into a JSON `{"error": …}` with 404 for unknown photos and looks, 409 for a
    /// save the catalog's looks collide with, 503 or 500 for a catalog that cannot do it.
    static func run(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as HTTPError {
            // Hummingbird's own errors (a path parameter that is not a number) in the API's one error shape.
            var response = try json(["error": error.body ?? error.status.reasonPhrase], status: error.status)
            response.headers.append(contentsOf: error.headers)
            return response
        } catch let error as StudioAPIError {
            return try json(["error": error.description], status: error.status)
        } catch let error as StudioSameCube {
            return try json(["error": error.description, "guid": error.guid], status: .conflict)
        } catch {
            return try json(["error": "\(error)"], status: status(of: error))
        }
    }

    /// The status for an error of the session or the catalog: 400 unless the request was right and something else
    /// is in the way.
    static func status(of error: any Error) -> HTTPResponse.Status {
        switch FailureKind(error) {
        case .notFound: return .notFound
        case .conflict: return .conflict
        case .unavailable: return .serviceUnavailable
        case .broken: return .internalServerError
        case .badRequest: return .badRequest
        }
    }

    /// Runs blocking work (decoding, composing, SQLite) off the server's tasks.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// The routes registered, with the methods each path serves, so that any other method is answered 405 listing them
/// (not 404).
struct RouteTable {
    typealias Handler = @Sendable (Request, BasicRequestContext) async throws -> Response
    let router: Router<BasicRequestContext>
    private var served: [(path: String, methods: [HTTPRequest.Method])] = []

    init(router: Router<BasicRequestContext>) { self.router = router }

    mutating func on(_ path: String, _ method: HTTPRequest.Method, _ handler: @escaping Handler) {
        if let i = served.firstIndex(where: { $0.path == path }) {
            served[i].methods.append(method)
        } else {
            served.append((path, [method]))
        }
        router.on(RouterPath(path), method: method, use: handler)
    }

    mutating func get(_ path: String, _ handler: @escaping Handler) { on(path, .get, handler) }
    mutating func post(_ path: String, _ handler: @escaping Handler) { on(path, .post, handler) }

    /// Every other method on a served path: 405 with an `Allow` header.
    func answerOtherMethods() {
        for (path, registered) in served {
            // The router answers HEAD for every GET itself (StudioServer: .autoGenerateHeadEndpoints).
            let methods = registered + (registered.contains(.get) ? [.head] : [])
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options]
            for method in all where !methods.contains(method) {
                router.on(RouterPath(path), method: method) { _, _ in
                    var response = try StudioRoutes.json(
                        ["error": "\(method.rawValue) is not served here; use \(allow)"], status: .methodNotAllowed)
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
