import Foundation
import LookStudioTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A running `lookstudio studio` (the built binary) on a free port with a fresh catalog, and a raw HTTP client
/// that can send any Host and Origin (what a browser on another site, or a DNS-rebound name, would send).
final class StudioProcess: @unchecked Sendable {
    let process = Process()
    let folder: String
    let catalog: String
    let port: Int
    let token: String
    let url: String

    /// Starts the studio (`binary`, by default the built one) on `photos` and waits for the URL it prints;
    /// `environment` replaces the test's own.
    init(photos: [String], binary: String = CLI.binary, environment: [String: String]? = nil) throws {
        folder = NSTemporaryDirectory() + "lookstudio-studio-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        catalog = folder + "/catalog.sqlite"
        process.executableURL = URL(fileURLWithPath: binary)
        if let environment { process.environment = environment }
        process.arguments = ["--catalog", catalog, "studio", "--port", "0"] + photos
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n") && Date() < deadline && process.isRunning {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard let u = URLComponents(string: line), u.host == "127.0.0.1", let p = u.port,
              let t = u.queryItems?.first(where: { $0.name == "token" })?.value else {
            process.terminate()
            throw StudioTestError("the studio printed no URL: \(text)")
        }
        url = line
        port = p
        token = t
    }

    /// Sends SIGINT (Ctrl-C) and returns the exit status.
    func interrupt() -> Int32 {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: folder)
    }

    struct Reply {
        var status: Int
        var headers: String
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One HTTP/1.1 request over a fresh connection; `host` nil sends the studio's own.
    func request(_ target: String, method: String = "GET", host: String? = nil, origin: String? = nil,
                 token: String?? = .none, headers: [String: String] = [:], body: [UInt8] = []) throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let origin { head += "Origin: \(origin)\r\n" }
        switch token {
        case .none: head += "X-Studio-Token: \(self.token)\r\n"
        case .some(.some(let t)): head += "X-Studio-Token: \(t)\r\n"
        case .some(.none): break
        }
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        // A test may declare its own length (or send chunks) to see what the server does with a body's size.
        let framed = headers.keys.contains { ["content-length", "transfer-encoding"].contains($0.lowercased()) }
        head += (framed ? "" : "Content-Length: \(body.count)\r\n") + "\r\n"
        let raw = try Self.exchange(port: port, Array(head.utf8) + body)
        guard let split = Self.find([13, 10, 13, 10], in: raw) else { throw StudioTestError("no HTTP reply") }
        let headText = String(decoding: raw[..<split], as: UTF8.self)
        let status = Int(headText.split(separator: " ").dropFirst().first ?? "") ?? 0
        var payload = Array(raw[(split + 4)...])
        if headText.lowercased().contains("transfer-encoding: chunked") { payload = Self.unchunk(payload) }
        return Reply(status: status, headers: headText, body: payload)
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    static func unchunk(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while let end = find([13, 10], in: Array(data[i...])) {
            let size = Int(String(decoding: data[i..<(i + end)], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            let start = i + end + 2
            out += data[start..<min(data.count, start + size)]
            i = start + size + 2
            if i >= data.count { break }
        }
        return out
    }

    static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StudioTestError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw StudioTestError("connect to 127.0.0.1:\(port) failed") }
        var sent = 0
        while sent < bytes.count {
            // No SIGPIPE: a server that refuses a body early (413) may close before all of it is sent; its answer
            // is then read below.
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}

struct StudioTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
