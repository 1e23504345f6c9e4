import Foundation
import LookStudioTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Requests the probe sent the studio (issue 56 item 9): a recipe of size -1, two Host headers, a request target in
/// absolute form, a connection that never sends a request.
@Suite(.serialized) struct StudioHostileRequestTests {
    static let photo = CLI.packageRoot + "/samples/coffee.png"

    @Test func aRecipeOfSizeMinusOneAndTwoHostsAreBadRequests() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let body = Array(#"{"recipe":{"size":-1,"steps":[]}}"#.utf8)
        let compose = try studio.request("/api/compose", method: "POST",
                                         headers: ["Content-Type": "application/json"], body: body)
        #expect(compose.status == 400, "\(compose.status) \(compose.text.prefix(200))")
        #expect(compose.text.contains("size -1 is out of range"), "\(compose.text.prefix(200))")
        #expect(compose.text.contains("cube size -1 is out of range: use 2…256"), "\(compose.text.prefix(200))")
        let twoHosts = try studio.request("/api/photos", headers: ["Host": "evil.example"])
        #expect(twoHosts.status == 400, "\(twoHosts.status)")
        #expect(twoHosts.text.contains("more than one Host header"))
        #expect(try studio.request("/api/photos").status == 200)
        #expect(studio.interrupt() == 0)
    }

    @Test func aRequestTargetThatIsNotAPathIsABadRequest() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        // The Host is this studio's: only the target names another server, which a proxy would have obeyed.
        let absolute = try studio.request("http://evil.example/api/photos")
        #expect(absolute.status == 400, "\(absolute.status) \(absolute.text.prefix(200))")
        #expect(absolute.text.contains("request target"), "\(absolute.text.prefix(200))")
        #expect(absolute.headers.lowercased().contains("connection: close"), "\(absolute.headers)")
        #expect(try studio.request("*", method: "OPTIONS").status == 400)
        #expect(try studio.request("/api/photos").status == 200)
        #expect(studio.interrupt() == 0)
    }

    @Test func anIdleConnectionIsClosedAfterTheStatedTime() throws {
        let studio = try StudioProcess(photos: [Self.photo])
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(studio.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let start = Date()
        // Waits for the server to close the silent connection (end of file), at most 20 s past the stated time.
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32((60 + 20) * 1000))
        var byte: UInt8 = 0
        let closed = ready == 1 && recv(fd, &byte, 1, 0) == 0
        let waited = Date().timeIntervalSince(start)
        #expect(closed, "the connection stayed open \(Int(waited)) s")
        #expect(waited > 55, "closed after \(waited) s")
        #expect(studio.interrupt() == 0)
    }
}
