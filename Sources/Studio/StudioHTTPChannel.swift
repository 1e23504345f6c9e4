import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

extension HTTPServerBuilder {
    /// HTTP/1 with `configuration`, refusing with 400 any request whose target is not a path (origin form).
    static func studioHTTP1(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        .init { responder in
            OriginFormHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}

/// Hummingbird's HTTP/1 channel with ``OriginFormGuard`` between the HTTP/1 decoder and the conversion to HTTP
/// types: that conversion reads an absolute-form target's authority and drops it, so no handler after it (where
/// Hummingbird's `additionalChannelHandlers` go) can tell `GET http://evil.example/x` from `GET /x`.
struct OriginFormHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Runs on the channel's event loop before it reads, so no request can pass before the guard is in place.
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(OriginFormGuard(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Answers `400` and closes the connection when a request's target is not origin form (`/path?query`): the absolute
/// form (`http://host/path`) names another server, which a proxy would obey, and the studio is no proxy; `*`
/// (`OPTIONS *`) and the authority form (`CONNECT`) ask for nothing the studio serves.
final class OriginFormGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Set once a request is refused: the rest of what the connection sends is dropped until it closes.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(let head) = unwrapInboundIn(data), !head.uri.hasPrefix("/") else {
            context.fireChannelRead(data)
            return
        }
        refused = true
        let body = ByteBuffer(string: "400 bad request: the request target must be a path on this studio (/…), "
                              + "not an absolute URL, * or host:port\n")
        let headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"),
                                   ("Content-Length", String(body.readableBytes)), ("Connection", "close")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest,
                                                             headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
