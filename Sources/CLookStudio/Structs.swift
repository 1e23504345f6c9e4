import LookStudioKit

/// The caller-filled structs of lookstudio.h start with `struct_size`. Version 1 is the first, so its size is the
/// least any caller may pass; a later header's longer struct is read up to the fields this library knows.
enum Structs {
    /// The caller's struct at `pointer`, its known fields over `defaults`; `name` is the C type for messages.
    static func read<T>(_ pointer: UnsafePointer<T>?, defaults: T, name: String) throws(LookStudioError) -> T {
        guard let pointer else { throw LookStudioError(.invalidArgument, "\(name) is NULL") }
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        try check(size, name: name, as: T.self)
        var value = defaults
        withUnsafeMutableBytes(of: &value) { bytes in
            bytes.copyMemory(from: UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: bytes.count))
        }
        return value
    }

    /// Writes `value` into the caller's struct at `pointer` (its `struct_size` set by the caller), up to the
    /// fields this library knows; the caller's `struct_size` is kept.
    static func write<T>(_ value: T, to pointer: UnsafeMutablePointer<T>?, name: String) throws(LookStudioError) {
        guard let pointer else { throw LookStudioError(.invalidArgument, "\(name) is NULL") }
        let raw = UnsafeMutableRawPointer(pointer)
        let size = raw.load(as: UInt32.self)
        try check(Int(size), name: name, as: T.self)
        withUnsafeBytes(of: value) { UnsafeMutableRawBufferPointer(start: raw, count: $0.count).copyMemory(from: $0) }
        raw.storeBytes(of: size, as: UInt32.self)
    }

    private static func check<T>(_ size: Int, name: String, as _: T.Type) throws(LookStudioError) {
        guard size >= MemoryLayout<T>.size else {
            throw LookStudioError(.invalidArgument, "\(name).struct_size is \(size), less than the "
                                  + "\(MemoryLayout<T>.size) bytes of ABI version 1: fill it with its _init "
                                  + "function, or set sizeof(\(name))")
        }
    }

    /// A C string argument as text; NULL is nil.
    static func text(_ pointer: UnsafePointer<CChar>?, role: String) throws(LookStudioError) -> String? {
        guard let pointer else { return nil }
        guard let text = String(validatingCString: pointer) else {
            throw LookStudioError(.invalidArgument, "\(role) is not UTF-8 text")
        }
        return text
    }

    /// A C string argument that must be given; a NULL one is refused, `hint` saying what to give.
    static func requiredText(_ pointer: UnsafePointer<CChar>?, role: String, hint: String)
        throws(LookStudioError) -> String {
        guard let text = try text(pointer, role: role) else {
            throw LookStudioError(.invalidArgument, "\(role) is NULL: \(hint)")
        }
        return text
    }
}
