import Foundation

/// One C encoder shim's entry points and status codes. The libpng and libjpeg shims expose the same shape (create,
/// open, write rows, finish, data, message, destroy), so one `ShimWriter` runs either.
package struct ShimEncoder: Sendable {
    /// The format named in errors ("PNG").
    let format: String
    /// The library named in errors it reports itself ("libpng").
    let library: String
    let writeRows: @Sendable (OpaquePointer, UnsafeRawPointer, UInt32) -> Int32
    let finish: @Sendable (OpaquePointer) -> Int32
    let data: @Sendable (OpaquePointer, UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?
    let message: @Sendable (OpaquePointer) -> UnsafePointer<CChar>?
    let destroy: @Sendable (OpaquePointer) -> Void
    /// The shim's status codes for success, an unopenable or unwritable output, a failed allocation and misuse.
    let ok: Int32, openFailed: Int32, writeFailed: Int32, noMemory: Int32, misuse: Int32

    /// One shim's entry points (the writers of `ImageIO` use it too).
    package init(format: String, library: String,
                 writeRows: @escaping @Sendable (OpaquePointer, UnsafeRawPointer, UInt32) -> Int32,
                 finish: @escaping @Sendable (OpaquePointer) -> Int32,
                 data: @escaping @Sendable (OpaquePointer, UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>?,
                 message: @escaping @Sendable (OpaquePointer) -> UnsafePointer<CChar>?,
                 destroy: @escaping @Sendable (OpaquePointer) -> Void,
                 ok: Int32, openFailed: Int32, writeFailed: Int32, noMemory: Int32, misuse: Int32) {
        self.format = format
        self.library = library
        self.writeRows = writeRows
        self.finish = finish
        self.data = data
        self.message = message
        self.destroy = destroy
        self.ok = ok
        self.openFailed = openFailed
        self.writeFailed = writeFailed
        self.noMemory = noMemory
        self.misuse = misuse
    }
}

/// A C encoder from open to finish: rows counted against the image height, shim failures turned into
/// `ImageIOError`, the temporary file renamed into place on success and removed on failure or when dropped, so the
/// destination is either untouched or complete. Not thread-safe: it belongs to the writer that owns it.
package final class ShimWriter {
    let encoder: ShimEncoder
    package let path: String
    let temporaryPath: String?
    package let width: Int, height: Int, channels: Int
    package private(set) var rowsWritten = 0
    private var handle: OpaquePointer?
    private var finished = false

    /// Takes over a created `handle` and starts it with `open` (which returns the shim's status); on failure the
    /// handle is destroyed and the temporary file removed before the error is thrown.
    package init(encoder: ShimEncoder, handle: OpaquePointer, path: String, temporaryPath: String?, width: Int,
                 height: Int, channels: Int, open: (OpaquePointer) -> Int32) throws(ImageIOError) {
        let status = open(handle)
        guard status == encoder.ok else {
            let error = ShimWriter.error(status, encoder: encoder, handle: handle, path: path)
            encoder.destroy(handle)
            if let temporaryPath { AtomicFile.discard(temporary: temporaryPath) }
            throw error
        }
        self.encoder = encoder
        self.handle = handle
        self.path = path
        self.temporaryPath = temporaryPath
        self.width = width
        self.height = height
        self.channels = channels
    }

    deinit {
        abandon()
    }

    /// Appends whole rows (`samples` a multiple of width · channels) at `pointer`, in the shim's sample type.
    package func write(_ pointer: UnsafeRawPointer?, samples: Int) throws(ImageIOError) {
        let handle = try liveHandle()
        let count = try RowCount.check(samples: samples, rowSamples: width * channels, written: rowsWritten,
                                       height: height, path: path)
        guard count > 0, let pointer else { return }
        let status = encoder.writeRows(handle, pointer, UInt32(count))
        guard status == encoder.ok else { throw fail(status) }
        rowsWritten += count
    }

    /// Completes the image and moves the file into place; every row must have been written.
    package func finish() throws(ImageIOError) {
        try finishEncoding()
        guard let temporaryPath else { return }
        do {
            try AtomicFile.commit(temporary: temporaryPath, to: path)
        } catch {
            AtomicFile.discard(temporary: temporaryPath)
            throw .cannotWrite(file: path, reason: error.reason)
        }
    }

    /// Completes a memory image and returns its bytes.
    package func finishData() throws(ImageIOError) -> [UInt8] {
        try finishEncoding()
        var size = 0
        guard let handle, let bytes = encoder.data(handle, &size) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    private func finishEncoding() throws(ImageIOError) {
        let handle = try liveHandle()
        let status = encoder.finish(handle)
        guard status == encoder.ok else { throw fail(status) }
        finished = true
    }

    /// The handle while rows may still be written; a finished or failed writer refuses further calls.
    private func liveHandle() throws(ImageIOError) -> OpaquePointer {
        guard let handle, !finished else {
            throw .invalidRows(file: path, detail: "the \(encoder.format) writer was already finished or has failed")
        }
        return handle
    }

    /// Turns a shim failure into an error and drops the partial output.
    private func fail(_ status: Int32) -> ImageIOError {
        let error = handle.map { ShimWriter.error(status, encoder: encoder, handle: $0, path: path) }
            ?? .cannotWrite(file: path, reason: "writer closed")
        abandon()
        return error
    }

    private func abandon() {
        if let handle {
            encoder.destroy(handle)
            self.handle = nil
        }
        if !finished, let temporaryPath { AtomicFile.discard(temporary: temporaryPath) }
    }

    private static func error(_ status: Int32, encoder: ShimEncoder, handle: OpaquePointer, path: String)
        -> ImageIOError {
        let message = encoder.message(handle).map { String(cString: $0) } ?? "no message"
        switch status {
        case encoder.openFailed, encoder.writeFailed: return .cannotWrite(file: path, reason: message)
        case encoder.noMemory: return .outOfMemory(file: path, detail: message)
        case encoder.misuse: return .invalidRows(file: path, detail: message)
        default: return .cannotWrite(file: path, reason: "\(encoder.library): \(message)")
        }
    }
}
