import Foundation
import HTTPTypes
import Hummingbird

/// Refuses, with 403, every request that is not from the studio's own page: a Host or Origin other than
/// 127.0.0.1:PORT / localhost:PORT (DNS rebinding, other sites) or a missing or wrong access token.
struct StudioGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    let port: BoundPort

    static var tokenHeader: HTTPField.Name { HTTPField.Name("X-Studio-Token")! }

    /// Name of the cookie holding the token; per port, so two studios on one machine keep their own.
    static func cookieName(port: Int) -> String { "lookstudio_token_\(port)" }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let port = port.value
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        // The HTTP/1 layer takes the first Host as the authority and leaves any other among the fields: two Hosts
        // are a malformed request (RFC 9112 §3.2), and a proxy and this server could each believe another one.
        if !request.headers[values: HTTPField.Name("Host")!].isEmpty {
            return Self.badRequest("more than one Host header")
        }
        guard let authority = request.head.authority?.lowercased(), hosts.contains(authority) else {
            return Self.forbidden("the Host is not this studio's (127.0.0.1:\(port) or localhost:\(port))")
        }
        if let origin = request.headers[.origin]?.lowercased(), !hosts.contains(where: { origin == "http://" + $0 }) {
            return Self.forbidden("the Origin is not this studio's")
        }
        guard let given = Self.token(in: request, port: port), Self.same(given, token) else {
            return Self.forbidden("missing or wrong access token: open the URL `lookstudio studio` printed")
        }
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' blob: data:; "
            + "connect-src 'self'; frame-ancestors 'none'"
        return response
    }

    /// The token from the header, else the cookie, else the query (the first page load).
    static func token(in request: Request, port: Int) -> String? {
        if let header = request.headers[tokenHeader] { return header }
        let name = cookieName(port: port) + "="
        for field in request.headers[values: .cookie] {
            for part in field.split(separator: ";") {
                let item = part.trimmingCharacters(in: .whitespaces)
                if item.hasPrefix(name) { return String(item.dropFirst(name.count)) }
            }
        }
        return request.uri.queryParameters.get("token")
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    static func badRequest(_ why: String) -> Response {
        Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: "400 bad request: \(why)\n")))
    }

    static func forbidden(_ why: String) -> Response {
        Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: "403 forbidden: \(why)\n")))
    }
}
