import Dispatch

/// 4:2:0 chroma subsampling, modelled so a JPEG, lossy WebP, HEIC or AVIF after image can be fitted without baking
/// its colour loss into the look.
///
/// These codecs keep luma at full resolution but average chroma (YCbCr) over aligned 2×2 blocks; the decoder
/// spreads each block's chroma back, with 9:3:3:1 triangle weights (libjpeg's and libwebp's "fancy" upsampling) or
/// by repeating it over the block (libheif 1.15's conversion to RGB). Small saturated details (a flag, a sign, a
/// patch) come back desaturated towards their surroundings, always the same way for the same colour, so the fit
/// would learn that desaturation as part of the look. Like the vignette, it is modelled instead: with S the
/// subsample-and-upsample operator and P the current look applied to the before image, the fit's target becomes
/// `after + P − S(P)` — the after image with the chroma detail the look predicts put back. If P were the true look
/// L, then with after = S(L) the target is L exactly; from a P that absorbed part of the loss, each round recovers a
/// share of the rest (the fixed point is L), the iteration the vignette model also uses.
enum ChromaSubsampling {
    /// How a decoder spreads a 2×2 block's chroma back over its pixels.
    enum Upsampling: Sendable, CaseIterable {
        /// 9:3:3:1 triangle weights over the block and its nearest neighbours (libjpeg, libwebp).
        case triangle
        /// The block's chroma repeated on its four pixels (libheif 1.15).
        case nearest
    }

    /// JFIF chroma of an RGB colour (Cb, Cr; BT.601 full range, as libjpeg converts).
    @inline(__always)
    static func chroma(_ v: SIMD3<Float>) -> SIMD2<Float> {
        SIMD2(-0.168_736 * v.x - 0.331_264 * v.y + 0.5 * v.z, 0.5 * v.x - 0.418_688 * v.y - 0.081_312 * v.z)
    }

    /// The RGB change a chroma change makes at fixed luma.
    @inline(__always)
    static func rgb(chroma d: SIMD2<Float>) -> SIMD3<Float> {
        SIMD3(1.402 * d.y, -0.344_136 * d.x - 0.714_136 * d.y, 1.772 * d.x)
    }

    /// `image` (interleaved RGB, `width`×`height`) minus its subsampled-and-upsampled self: the chroma detail
    /// 4:2:0 removes, as an RGB difference per pixel.
    static func detail(_ image: [Float], width: Int, height: Int, upsampling: Upsampling = .triangle) -> [Float] {
        let bw = (width + 1) / 2, bh = (height + 1) / 2
        // Block means of chroma; a half block at an odd edge averages the pixels it has, as libjpeg pads by
        // replication.
        var blocks = [SIMD2<Float>](repeating: .zero, count: bw * bh)
        image.withUnsafeBufferPointer { px in
            for by in 0..<bh {
                for bx in 0..<bw {
                    var sum = SIMD2<Float>()
                    for dy in 0..<2 {
                        let y = min(2 * by + dy, height - 1)
                        for dx in 0..<2 {
                            let i = 3 * (y * width + min(2 * bx + dx, width - 1))
                            sum += chroma(SIMD3(px[i], px[i + 1], px[i + 2]))
                        }
                    }
                    blocks[by * bw + bx] = sum / 4
                }
            }
        }
        var out = [Float](repeating: 0, count: 3 * width * height)
        image.withUnsafeBufferPointer { px in
            blocks.withUnsafeBufferPointer { bs in
                out.withUnsafeMutableBufferPointer { o in
                    nonisolated(unsafe) let src = px, b = bs, dst = o
                    let chunks = LookExtractor.chunkCount * 4
                    DispatchQueue.concurrentPerform(iterations: chunks) { k in
                        for y in (height * k / chunks)..<(height * (k + 1) / chunks) {
                            // Triangle filter: the pixel's own block row weighs 3, the nearer neighbouring one 1.
                            let by = y / 2, ny = min(max(y % 2 == 0 ? by - 1 : by + 1, 0), bh - 1)
                            for x in 0..<width {
                                let bx = x / 2, nx = min(max(x % 2 == 0 ? bx - 1 : bx + 1, 0), bw - 1)
                                let up: SIMD2<Float>
                                switch upsampling {
                                case .triangle:
                                    let own: SIMD2<Float> = 9 * b[by * bw + bx]
                                    let sides: SIMD2<Float> = 3 * (b[by * bw + nx] + b[ny * bw + bx])
                                    up = (own + sides + b[ny * bw + nx]) / 16
                                case .nearest:
                                    up = b[by * bw + bx]
                                }
                                let i = 3 * (y * width + x)
                                let d = rgb(chroma: chroma(SIMD3(src[i], src[i + 1], src[i + 2])) - up)
                                dst[i] = d.x
                                dst[i + 1] = d.y
                                dst[i + 2] = d.z
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The upsampling with which `after` carries 4:2:0 chroma, if it does: the subsampled prediction S(P) matches it
    /// clearly better than P itself (squared RGB error at most `ratio` of it), with the upsampling that matches
    /// best. A look changes colours, not where chroma edges are, so on an after image that was not subsampled S(P)
    /// only adds error.
    static func upsampling(after: PairImage, prediction: PairImage, ratio: Double = 0.8) -> Upsampling? {
        var plain = 0.0
        for i in prediction.rgb.indices {
            let e = Double(after.rgb[i] - prediction.rgb[i])
            plain += e * e
        }
        guard plain > 0 else { return nil }
        let errors = Upsampling.allCases.map { kind in
            let detail = detail(prediction.rgb, width: prediction.width, height: prediction.height, upsampling: kind)
            var subsampled = 0.0
            for i in prediction.rgb.indices {
                let s = Double(after.rgb[i] - prediction.rgb[i] + detail[i])
                subsampled += s * s
            }
            return (kind, subsampled)
        }
        guard let best = errors.min(by: { $0.1 < $1.1 }), best.1 < ratio * plain else { return nil }
        return best.0
    }

    /// The after image with the chroma detail the prediction says subsampling removed put back: after + P − S(P).
    static func restored(after: PairImage, prediction: PairImage, upsampling: Upsampling = .triangle) -> PairImage {
        let detail = detail(prediction.rgb, width: prediction.width, height: prediction.height, upsampling: upsampling)
        var out = after
        for i in out.rgb.indices { out.rgb[i] += detail[i] }
        return out
    }
}
