#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The frames `lookstudio plugin-host` and its parent exchange over the child's stdin and stdout.
///
/// A frame is a 12-byte header — kind (UInt32) and payload length (UInt64), little-endian — then the payload.
/// Control messages carry JSON; lattice points travel as raw native floats, so a 64³ evaluation is one 3 MB write
/// each way.
/// See docs/PLUGINS.md, "Isolation".
enum PluginHostFrame {
    /// The kind of a frame.
    enum Kind: UInt32 {
        /// Parent → child: JSON ``LoadRequest``; the child loads the plugins and answers with `loading` frames, then
        /// `registry`.
        case load = 1
        /// Parent → child: the adjustment, its parameter values and the RGB floats (``EvaluateFrame``).
        case evaluate = 2
        /// Child → parent: the path (UTF-8) of the file the child is about to `dlopen`.
        case loading = 10
        /// Child → parent: JSON ``RegistryMessage``.
        case registry = 11
        /// Child → parent: the RGB floats an `evaluate` produced.
        case result = 12
        /// Child → parent: UTF-8 text saying why a request could not be served.
        case failure = 13
    }

    /// Header size in bytes.
    static let headerSize = 12
    /// Largest payload either side accepts: a 256³ lattice (201 MB of floats) with room to spare.
    static let maximumPayload: UInt64 = 512 << 20
}

/// Why a frame could not be read or written.
enum FrameFailure: Error, Equatable {
    /// The other side closed its end (it exited or crashed).
    case closed
    /// The deadline passed first.
    case timedOut
    /// A system call failed, with its errno.
    case system(Int32)
    /// A header with an unknown kind or an oversized length: the other side is not speaking this protocol.
    case malformed(String)
}

/// Blocking frame I/O on a pair of file descriptors, each wait bounded by an optional deadline.
struct FrameChannel {
    let input: Int32
    let output: Int32
    /// The child at the other end, when this is the parent's side: a wait also ends when the child has ended, since
    /// processes it forked may hold the pipes open so that no end of file comes.
    var peer: ChildWatch?

    init(input: Int32, output: Int32, peer: ChildWatch? = nil) {
        self.input = input
        self.output = output
        self.peer = peer
    }

    /// Writes one frame whose payload is `parts`, in order, without copying them together.
    func send(_ kind: PluginHostFrame.Kind, _ parts: [UnsafeRawBufferPointer], deadline: ContinuousClock.Instant?)
        throws
    {
        var header = [UInt8](repeating: 0, count: PluginHostFrame.headerSize)
        let length = UInt64(parts.reduce(0) { $0 + $1.count })
        withUnsafeBytes(of: kind.rawValue.littleEndian) { header.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: length.littleEndian) { header.replaceSubrange(4..<12, with: $0) }
        try header.withUnsafeBytes { (bytes) in try write(bytes, deadline: deadline) }
        for part in parts { try write(part, deadline: deadline) }
    }

    /// Writes one frame with a byte-array payload.
    func send(_ kind: PluginHostFrame.Kind, bytes: [UInt8], deadline: ContinuousClock.Instant?) throws {
        try bytes.withUnsafeBytes { (raw) in try send(kind, [raw], deadline: deadline) }
    }

    /// Reads a frame header: its kind and payload length.
    func receiveHeader(deadline: ContinuousClock.Instant?) throws -> (PluginHostFrame.Kind, Int) {
        var header = [UInt8](repeating: 0, count: PluginHostFrame.headerSize)
        try header.withUnsafeMutableBytes { (bytes) in try read(into: bytes, deadline: deadline) }
        let raw = header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) }
        let length = header.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
        }
        guard let kind = PluginHostFrame.Kind(rawValue: raw) else {
            throw FrameFailure.malformed("unknown frame kind \(raw)")
        }
        guard length <= PluginHostFrame.maximumPayload else {
            throw FrameFailure.malformed("a frame of \(length) bytes")
        }
        return (kind, Int(length))
    }

    /// Reads a whole payload of `count` bytes into a new array.
    func receiveBytes(_ count: Int, deadline: ContinuousClock.Instant?) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { (raw) in try read(into: raw, deadline: deadline) }
        return bytes
    }

    /// Fills `buffer` from `input`, waiting at most until `deadline`.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?) throws {
        var done = 0
        while done < buffer.count {
            try wait(input, for: Int16(POLLIN), deadline: deadline)
            let n = Glibc.read(input, buffer.baseAddress! + done, buffer.count - done)
            if n > 0 {
                done += n
            } else if n == 0 {
                throw FrameFailure.closed
            } else if errno != EINTR && errno != EAGAIN {
                throw FrameFailure.system(errno)
            }
        }
    }

    /// Writes all of `buffer` to `output`, waiting at most until `deadline`.
    func write(_ buffer: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant?) throws {
        var done = 0
        while done < buffer.count {
            try wait(output, for: Int16(POLLOUT), deadline: deadline)
            let n = Glibc.write(output, buffer.baseAddress! + done, buffer.count - done)
            if n >= 0 {
                done += n
            } else if errno == EPIPE {
                throw FrameFailure.closed
            } else if errno != EINTR && errno != EAGAIN {
                throw FrameFailure.system(errno)
            }
        }
    }

    /// Waits until `fd` is ready for `events` (or the other side hung up), or throws at the deadline.
    private func wait(_ fd: Int32, for events: Int16, deadline: ContinuousClock.Instant?) throws {
        guard let deadline else { return }
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw FrameFailure.timedOut }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 86_400_000))
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            // With a peer, wake every 100 ms to see whether it has ended.
            let ready = poll(&descriptor, 1, peer == nil ? milliseconds : min(milliseconds, 100))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw FrameFailure.system(errno) }
            if ready == 0, let peer, peer.hasEnded() { throw FrameFailure.closed }
        }
    }
}

/// The `evaluate` payload: UInt32 adjustment index, UInt32 parameter count P, P UInt32 float counts (one per
/// parameter, in declaration order; little-endian), the parameters' floats one after another, then the RGB floats
/// (native layout). Both sides bound it: at most ``PluginLoader/maximumParameters`` parameters of at most
/// ``ParameterValue/maximumFloatCount`` floats each, and the child checks every value against its descriptor
/// before the plugin sees it.
enum EvaluateFrame {
    /// Where the parts of one payload are.
    struct Layout: Equatable {
        let index: Int
        /// Floats of each parameter, in order.
        let counts: [Int]
        /// Byte offset of the first parameter float.
        let valuesOffset: Int
        /// Byte offset of the first RGB float.
        let pointsOffset: Int
    }

    /// The UInt32 words that head a payload for `values` of adjustment `index`, or nil when the values exceed the
    /// frame's bounds.
    static func header(index: Int, values: [ParameterValue]) -> [UInt32]? {
        guard values.count <= Int(PluginLoader.maximumParameters),
              values.allSatisfy({ $0.floatCount <= ParameterValue.maximumFloatCount }),
              let index = UInt32(exactly: index) else { return nil }
        return ([index, UInt32(values.count)] + values.map { UInt32($0.floatCount) }).map(\.littleEndian)
    }

    /// The layout of a received payload, or why it is malformed.
    static func layout(of payload: UnsafeRawBufferPointer) throws(FrameFailure) -> Layout {
        func word(_ i: Int) -> Int {
            Int(UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
        }
        guard payload.count >= 8 else { throw .malformed("an evaluate frame of \(payload.count) bytes") }
        let parameterCount = word(1)
        guard parameterCount <= Int(PluginLoader.maximumParameters), payload.count >= 8 + 4 * parameterCount else {
            throw .malformed("an evaluate frame of \(payload.count) bytes declaring \(parameterCount) parameters")
        }
        let counts = (0..<parameterCount).map { word(2 + $0) }
        if let large = counts.first(where: { $0 > ParameterValue.maximumFloatCount }) {
            throw .malformed("an evaluate frame with a parameter of \(large) floats")
        }
        let valuesOffset = 8 + 4 * parameterCount
        let pointsOffset = valuesOffset + 4 * counts.reduce(0, +)
        guard pointsOffset <= payload.count, (payload.count - pointsOffset) % 12 == 0 else {
            throw .malformed("an evaluate frame of \(payload.count) bytes with \(parameterCount) parameters")
        }
        return Layout(index: word(0), counts: counts, valuesOffset: valuesOffset, pointsOffset: pointsOffset)
    }
}

/// What the parent asks the child to load.
struct LoadRequest: Codable {
    /// The resolved search path, in order.
    let searchPaths: [String]
    /// Files not to `dlopen`: they crashed or hung an earlier child while loading.
    let excluded: [String]
}

/// What the child loaded: the registry as plain values.
struct RegistryMessage: Codable {
    /// One adjustment without its function.
    struct AdjustmentInfo: Codable {
        let id: String
        let displayName: String
        let category: String
        let description: String
        let parameters: [ParameterDescriptor]
        let pluginPath: String
        let pluginName: String
        let pluginVersion: String
    }

    /// A refusal with its whole reason.
    struct Refusal: Codable {
        let path: String
        let adjustmentID: String?
        let reason: PluginRefusal.Reason
    }

    /// In the order of `PluginRegistry.adjustments`: an evaluation names its adjustment by index in this list.
    let adjustments: [AdjustmentInfo]
    let refusals: [Refusal]
    let plugins: [LoadedPlugin]
}
