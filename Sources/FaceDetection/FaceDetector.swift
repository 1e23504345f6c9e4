import CFaceDetect
import Foundation
import LookModel

/// dlib's frontal face detector (HOG features and a linear SVM; dlib's own model, read from its serialization
/// compiled into CFaceDetect: no file to load).
///
/// Build it once per process (`FaceDetector.shared`) and call it from any thread: dlib's detector keeps the last
/// image's feature pyramid inside itself, so it must not run twice at once; each call borrows a private clone from a
/// pool guarded by `lock` (one clone per concurrent caller, made on demand, kept for reuse).
public final class FaceDetector: @unchecked Sendable {
    /// The long side, in pixels, of the copy faces are detected on. dlib finds faces down to about 65 pixels wide
    /// (its 80-pixel window with a 6/5 pyramid), so at 1600 the smallest face found is ~4 % of the long side. Measured
    /// CPU time on a 24 MP photo's copy: 1024 → 45 ms, 1280 → 72 ms, 1600 → 112 ms, 2048 → 174 ms (docs/SCENES.md).
    public static let workingLongSide = 1600
    /// Detections scoring below this do not count. On 80 photos without people the highest false detection scored
    /// 0.22; frontal faces scored 1.0…2.3, also darkened by 2.5 EV (docs/SCENES.md). dlib's own default is 0.
    public static let scoreThreshold = 0.5

    /// Threads one detection uses: every core, since the analysis waits for the faces (docs/SCENES.md, "Speed").
    public static let defaultThreads = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// The process-wide detector, built on first use.
    public static let shared: Result<FaceDetector, FaceDetectionError> = Result {
        () throws(FaceDetectionError) -> FaceDetector in try FaceDetector()
    }

    /// The instructions the detector's HOG features and filters run on.
    public enum Instructions: Int32, Sendable {
        /// AVX2 where the processor has it, else the baseline.
        case automatic = 0
        /// The x86-64 baseline Debian builds dlib for (or the processor's own elsewhere).
        case baseline = 1
        /// AVX2: the same faces, and a sixth less time for a 24 MP photo's whole analysis (docs/SCENES.md).
        case avx2 = 2
    }

    private let prototype: OpaquePointer
    private let lock = NSLock()
    private var idle: [OpaquePointer] = []

    /// Builds dlib's frontal face detector: from the serialization of dlib's model compiled into this module
    /// (12 ms), or with `compiled` from the copy inside libdlib, which dlib decompresses (1.5 s of CPU: more than
    /// the rest of a 24 MP photo's analysis). AVX2 where the processor has it.
    public init(compiled: Bool = false) throws(FaceDetectionError) {
        var message = [CChar](repeating: 0, count: 256)
        guard let detector = compiled ? fd_create_compiled(&message, message.count) : fd_create(&message, message.count)
        else { throw .unavailable(reason: Self.text(message)) }
        prototype = detector
    }

    /// Builds the detector from its shipped serialization for `instructions`; AVX2 on a processor without it is
    /// refused.
    public init(instructions: Instructions) throws(FaceDetectionError) {
        var message = [CChar](repeating: 0, count: 256)
        guard let detector = fd_create_for(instructions.rawValue, &message, message.count) else {
            throw .unavailable(reason: Self.text(message))
        }
        prototype = detector
    }

    /// The instructions this detector runs on (never `automatic`).
    public var instructions: Instructions { Instructions(rawValue: fd_instructions(prototype)) ?? .baseline }

    /// The detector as dlib serializes it (uncompressed).
    public func serialized() -> [UInt8] {
        let size = fd_serialize(prototype, nil, 0)
        var bytes = [UInt8](repeating: 0, count: size)
        _ = bytes.withUnsafeMutableBufferPointer { fd_serialize(prototype, $0.baseAddress, size) }
        return bytes
    }

    deinit {
        for detector in idle { fd_destroy(detector) }
        fd_destroy(prototype)
    }

    /// Detects faces in `image` as given (boxes in its pixels, best first), after `upsample` doublings (each finds
    /// faces half as small at four times the cost). Boxes may reach past the image's edges. `threads` share the
    /// pyramid levels and filter scans (the same detections as dlib's own single-threaded detector, `threads` 0).
    public func detect(_ image: GreyImage, upsample: Int = 0, threshold: Double = FaceDetector.scoreThreshold,
                       threads: Int = FaceDetector.defaultThreads) throws(FaceDetectionError) -> [FaceRegion] {
        guard upsample >= 0 else { throw .invalidImage(reason: "upsample \(upsample) is negative") }
        guard threads >= 0 else { throw .invalidImage(reason: "threads \(threads) is negative") }
        let detector = try borrow()
        defer { giveBack(detector) }
        var capacity = 64
        while true {
            var found = [fd_face](repeating: fd_face(), count: capacity)
            var message = [CChar](repeating: 0, count: 256)
            let n = image.pixels.withUnsafeBufferPointer { p in
                fd_detect(detector, p.baseAddress, Int32(image.width), Int32(image.height), 1, image.width,
                          Int32(upsample), threshold, Int32(threads), &found, Int32(capacity), &message,
                          message.count)
            }
            if n < 0 { throw .failed(reason: Self.text(message)) }
            if Int(n) <= capacity {
                return found.prefix(Int(n)).map {
                    FaceRegion(x: Int($0.left), y: Int($0.top), width: Int($0.width), height: Int($0.height),
                         score: $0.score)
                }
            }
            capacity = Int(n)
        }
    }

    /// Detects faces on a copy of `image` resampled to `workingLongSide`, and returns them in the pixels of a
    /// `sourceWidth × sourceHeight` original that `image` is a scaled copy of, clipped to it. Resampling to a fixed
    /// size makes the smallest face found the same fraction of the frame at every input resolution.
    public func faces(in image: GreyImage, sourceWidth: Int, sourceHeight: Int,
                      workingLongSide: Int = FaceDetector.workingLongSide,
                      threshold: Double = FaceDetector.scoreThreshold) throws(FaceDetectionError) -> [FaceRegion] {
        guard sourceWidth > 0, sourceHeight > 0, workingLongSide > 0 else {
            throw .invalidImage(reason: "source \(sourceWidth)×\(sourceHeight), working side \(workingLongSide)")
        }
        let working = image.resized(longSide: workingLongSide)
        let sx = Double(sourceWidth) / Double(working.width), sy = Double(sourceHeight) / Double(working.height)
        return try detect(working, threshold: threshold).compactMap { f in
            let left = max(0, Int((Double(f.x) * sx).rounded()))
            let top = max(0, Int((Double(f.y) * sy).rounded()))
            let right = min(sourceWidth, Int((Double(f.x + f.width) * sx).rounded()))
            let bottom = min(sourceHeight, Int((Double(f.y + f.height) * sy).rounded()))
            guard right > left, bottom > top else { return nil }
            return FaceRegion(x: left, y: top, width: right - left, height: bottom - top, score: f.score)
        }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func borrow() throws(FaceDetectionError) -> OpaquePointer {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        var message = [CChar](repeating: 0, count: 256)
        guard let clone = fd_clone(prototype, &message, message.count) else {
            throw .failed(reason: Self.text(message))
        }
        return clone
    }

    private func giveBack(_ detector: OpaquePointer) {
        lock.lock()
        idle.append(detector)
        lock.unlock()
    }
}
