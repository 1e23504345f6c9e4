import Dispatch
import ImageIO

/// A JPEG after image's loss — quantised 8×8 DCT blocks and subsampled chroma — modelled so the fit does not bake
/// it into the look.
///
/// JPEG keeps a block's mean but quantises its detail, so texture the before image shows comes back flattened in
/// the after image: regressing after on before then learns a flatter look than the true one (errors in the
/// variables), and the continuation beyond the pair's colours carries that wrong slope outward. With S the file's
/// own compression (its quantisation tables and chroma sampling, re-applied through libjpeg) and P the current look
/// applied to the before image, the fit's target becomes `P + ω·(after − S(P))`: where P is the true look L,
/// after = S(L) and the target is L exactly; from a P that absorbed part of the loss, each round recovers a share
/// of the rest, as `ChromaSubsampling` does for the chroma part alone. ω > 1 over-relaxes the update, which the
/// detail S damps most needs (docs/EXTRACT.md).
enum JPEGLoss {
    /// The target for the next round: `prediction + relaxation · (after − S(prediction))`.
    static func restored(after: PairImage, prediction: PairImage, compression: JPEGCompression,
                         relaxation: Float) throws(ExtractionError) -> PairImage {
        let count = prediction.rgb.count, chunks = LookExtractor.chunkCount * 4
        var codes = [UInt8](repeating: 0, count: count)
        prediction.rgb.withUnsafeBufferPointer { p in codes.withUnsafeMutableBufferPointer { c in
            nonisolated(unsafe) let src = p, dst = c
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                for i in (count * k / chunks)..<(count * (k + 1) / chunks) {
                    dst[i] = UInt8(min(max(src[i], 0), 1) * 255 + 0.5)
                }
            }
        } }
        let compressed: [UInt8]
        do {
            compressed = try compression.roundTrip(codes, width: prediction.width, height: prediction.height)
        } catch {
            throw .invalidInput("cannot re-create the after image's JPEG compression: \(error.reason)")
        }
        var out = after
        out.rgb.withUnsafeMutableBufferPointer { o in prediction.rgb.withUnsafeBufferPointer { p in
            compressed.withUnsafeBufferPointer { s in
                nonisolated(unsafe) let target = o, predicted = p, squeezed = s
                DispatchQueue.concurrentPerform(iterations: chunks) { k in
                    for i in (count * k / chunks)..<(count * (k + 1) / chunks) {
                        target[i] = predicted[i] + relaxation * (target[i] - Float(squeezed[i]) / 255)
                    }
                }
            }
        } }
        return out
    }
}
