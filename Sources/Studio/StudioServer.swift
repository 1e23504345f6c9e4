import Foundation
import Hummingbird
import LookCore
import NIOCore
import Workflows

/// The studio's local web server: the page and its JSON API, on 127.0.0.1 only, behind a random access token.
public struct StudioServer: Sendable {
    /// The actions the API calls.
    public let session: StudioSession
    /// The access token every request must carry (header, cookie or, for the first page load, `?token=`).
    public let token: String
    /// Port asked for; 0 picks a free one.
    public let port: Int

    /// A server for `session` on `port` (0: any free port) with a fresh random token unless one is given.
    public init(session: StudioSession, port: Int, token: String? = nil) {
        self.session = session
        self.port = port
        self.token = token ?? Self.randomToken()
    }

    /// 32 random bytes as hex (the system's cryptographic generator).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Seconds a connection may stay open without a request before the server closes it, so that idle or
    /// half-sent connections cannot pile up (a page keeps its connection busy while it is in use).
    public static let idleTimeoutSeconds = 60

    /// The URL to open: the bound port and the token.
    public static func url(port: Int, token: String) -> String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully; `ready` receives the URL once listening.
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        let bound = BoundPort()
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: StudioGuard(token: token, port: bound))
        StudioRoutes(session: session, token: token, port: bound).register(on: router)
        let token = self.token
        let app = Application(
            router: router,
            server: .studioHTTP1(configuration: .init(idleTimeout: .seconds(Int64(Self.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "lookstudio"),
            onServerRunning: { channel in
                let actual = channel.localAddress?.port ?? 0
                bound.set(actual)
                ready(StudioServer.url(port: actual, token: token))
            })
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw StudioError.portInUse(port)
        }
    }
}

/// The port the server listens on, known once it is bound; read by every request's Host check.
final class BoundPort: Sendable {
    // Locked: written once by the server-running callback, read by request tasks.
    private let port = Locked(0)

    func set(_ value: Int) { port.withLock { $0 = value } }
    var value: Int { port.current }
}
