import CLookStudioHeader
import LookStudioKit

/// An error handed to C: its status and message, the message's C copy living as long as the error.
final class ErrorBox {
    let status: lookstudio_status
    let message: CString

    init(_ error: LookStudioError) {
        status = error.kind.status
        message = CString(error.message)
    }
}

extension LookStudioError.Kind {
    /// The C status value.
    var status: lookstudio_status {
        switch self {
        case .invalidArgument: lookstudio_status(LOOKSTUDIO_INVALID_ARGUMENT)
        case .notFound: lookstudio_status(LOOKSTUDIO_NOT_FOUND)
        case .unavailable: lookstudio_status(LOOKSTUDIO_UNAVAILABLE)
        case .catalogBroken: lookstudio_status(LOOKSTUDIO_CATALOG_BROKEN)
        case .failed: lookstudio_status(LOOKSTUDIO_FAILED)
        }
    }
}

/// Runs one C call's body: LOOKSTUDIO_OK, or the error's status with the error stored in `error` when the caller
/// asked for it (`*error` is set either way, to NULL on success).
func call(_ errorOut: UnsafeMutablePointer<OpaquePointer?>?, _ body: () throws(LookStudioError) -> Void)
    -> lookstudio_status {
    errorOut?.pointee = nil
    do {
        try body()
        return lookstudio_status(LOOKSTUDIO_OK)
    } catch {
        let box = ErrorBox(error)
        errorOut?.pointee = Handles.make(box, .error)
        return box.status
    }
}

/// Runs the body of a call that makes one handle: the result slot (`role`) refused when NULL and cleared first, so
/// a failed call leaves NULL there, then `make`, which checks the arguments and returns the handle stored there.
func callMaking(_ slot: UnsafeMutablePointer<OpaquePointer?>?, _ role: String,
                error: UnsafeMutablePointer<OpaquePointer?>?,
                _ make: () throws(LookStudioError) -> OpaquePointer) -> lookstudio_status {
    call(error) { () throws(LookStudioError) in
        guard let slot else {
            throw LookStudioError(.invalidArgument, "\(role) is NULL: pass where to store the result")
        }
        slot.pointee = nil
        slot.pointee = try make()
    }
}

/// `callMaking` for a call on the engine: the engine is checked after the slot, before `make`.
func callMaking(_ slot: UnsafeMutablePointer<OpaquePointer?>?, _ role: String, engine: OpaquePointer?,
                error: UnsafeMutablePointer<OpaquePointer?>?,
                _ make: (Engine) throws(LookStudioError) -> OpaquePointer) -> lookstudio_status {
    callMaking(slot, role, error: error) { () throws(LookStudioError) in try make(try Handles.engine(engine)) }
}

@_cdecl("lookstudio_error_status")
public func lookstudio_error_status(_ error: OpaquePointer?) -> lookstudio_status {
    (try? Handles.object(error, .error, as: ErrorBox.self, role: "error"))?.status
        ?? lookstudio_status(LOOKSTUDIO_INVALID_ARGUMENT)
}

@_cdecl("lookstudio_error_message")
public func lookstudio_error_message(_ error: OpaquePointer?) -> UnsafePointer<CChar> {
    if let box = try? Handles.object(error, .error, as: ErrorBox.self, role: "error") {
        return UnsafePointer(box.message.pointer)
    }
    return UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("lookstudio_error_free")
public func lookstudio_error_free(_ error: OpaquePointer?) { Handles.free(error, .error) }

/// The message of no error.
private let emptyText: StaticString = ""
