import CLookStudioHeader
import Glibc
import LookStudioKit

/// The kinds of object the C API hands out; each handle's first word names its kind, so an image passed where an
/// engine is expected (or, usually, a handle already freed) is refused with a message instead of misread.
enum HandleKind: UInt32 {
    case engine = 0x4C53_454E // "LSEN"
    case image = 0x4C53_494D
    case analysis = 0x4C53_414E
    case looks = 0x4C53_4C4B
    case error = 0x4C53_4552

    /// The C type's name, for messages.
    var typeName: String {
        switch self {
        case .engine: "lookstudio_engine"
        case .image: "lookstudio_image"
        case .analysis: "lookstudio_analysis"
        case .looks: "lookstudio_looks"
        case .error: "lookstudio_error"
        }
    }
}

/// What a C handle points to: its kind, the ABI version that made it, and the retained Swift object. The header is
/// the whole opaque struct; its layout is private to the library.
struct HandleHeader {
    var kind: UInt32
    var abiVersion: UInt32
    var object: UnsafeMutableRawPointer
}

/// Handles: made, checked and freed here only.
enum Handles {
    /// A new handle owning `object`.
    static func make(_ object: AnyObject, _ kind: HandleKind) -> OpaquePointer {
        let header = UnsafeMutablePointer<HandleHeader>.allocate(capacity: 1)
        header.initialize(to: HandleHeader(kind: kind.rawValue, abiVersion: UInt32(LOOKSTUDIO_ABI_VERSION),
                                           object: Unmanaged.passRetained(object).toOpaque()))
        return OpaquePointer(header)
    }

    /// The object behind `handle`, which must be a live handle of `kind`; `role` names the argument in messages.
    static func object<T: AnyObject>(_ handle: OpaquePointer?, _ kind: HandleKind, as _: T.Type,
                                     role: String) throws(LookStudioError) -> T {
        guard let handle else { throw LookStudioError(.invalidArgument, "\(role) is NULL") }
        let header = UnsafeMutablePointer<HandleHeader>(handle)
        guard header.pointee.kind == kind.rawValue else {
            throw LookStudioError(.invalidArgument, "\(role) is not a live \(kind.typeName) (a freed handle, or "
                                  + "another kind of object)")
        }
        return Unmanaged<T>.fromOpaque(header.pointee.object).takeUnretainedValue()
    }

    /// Frees `handle` if it is a live handle of `kind`; NULL and anything else are left alone.
    static func free(_ handle: OpaquePointer?, _ kind: HandleKind) {
        guard let handle else { return }
        let header = UnsafeMutablePointer<HandleHeader>(handle)
        guard header.pointee.kind == kind.rawValue else { return }
        // Cleared before the memory goes back, so a second free of the same handle is likely to be refused.
        header.pointee.kind = 0
        Unmanaged<AnyObject>.fromOpaque(header.pointee.object).release()
        header.deallocate()
    }
}

/// A string copied into C memory, freed with its owner.
final class CString {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ text: String) {
        // strdup fails only when memory is exhausted; an empty literal's copy then stands in.
        pointer = strdup(text) ?? strdup("")!
    }

    deinit { Glibc.free(pointer) }
}

/// The objects behind the API's handle arguments, one accessor per kind, so every entry point checks them alike.
extension Handles {
    /// The engine behind an `engine` argument.
    static func engine(_ handle: OpaquePointer?) throws(LookStudioError) -> Engine {
        try object(handle, .engine, as: Engine.self, role: "engine")
    }

    /// The image behind an image argument; `role` names the argument in messages.
    static func image(_ handle: OpaquePointer?, role: String = "image") throws(LookStudioError) -> Image {
        try object(handle, .image, as: ImageBox.self, role: role).image
    }

    /// The image behind an optional image argument; NULL is none.
    static func optionalImage(_ handle: OpaquePointer?) throws(LookStudioError) -> Image? {
        guard let handle else { return nil }
        return try image(handle)
    }

    /// The analysis behind an optional `analysis` argument; NULL is none.
    static func optionalAnalysis(_ handle: OpaquePointer?) throws(LookStudioError) -> Analysis? {
        guard let handle else { return nil }
        return try object(handle, .analysis, as: AnalysisBox.self, role: "analysis").analysis
    }
}
