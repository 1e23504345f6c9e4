import CLookStudioHeader

/// The library's version text, kept for the life of the process (a C string literal is static).
private let versionText: StaticString = "1.0.0"

/// The ABI version of this library (see lookstudio.h, "Stability").
@_cdecl("lookstudio_abi_version")
public func lookstudio_abi_version() -> UInt32 { UInt32(LOOKSTUDIO_ABI_VERSION) }

/// The library's version text, static.
@_cdecl("lookstudio_version")
public func lookstudio_version() -> UnsafePointer<CChar> {
    UnsafeRawPointer(versionText.utf8Start).assumingMemoryBound(to: CChar.self)
}
