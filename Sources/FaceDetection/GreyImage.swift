/// An 8-bit single-channel image, rows packed: what the face detector looks at.
public struct GreyImage: Sendable, Equatable {
    /// Size in pixels.
    public let width: Int, height: Int
    /// `width × height` values, row by row.
    public let pixels: [UInt8]

    /// Wraps grey pixels; `pixels.count` must be `width × height`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(FaceDetectionError) {
        guard width > 0, height > 0, pixels.count == width * height else {
            throw .invalidImage(reason: "\(width)×\(height) grey image needs \(max(0, width * height)) pixels, "
                                + "got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Converts interleaved 8-bit samples (1 to 4 channels; the first three are R, G, B) to grey as dlib does
    /// itself, the plain mean of R, G and B, so the detector sees what it was trained on.
    public init(interleaved samples: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int)
        throws(FaceDetectionError) {
        guard (1...4).contains(channels), width > 0, height > 0, samples.count >= width * height * channels else {
            throw .invalidImage(reason: "\(width)×\(height)×\(channels) samples expected, got \(samples.count)")
        }
        let n = width * height
        var out = [UInt8](repeating: 0, count: n)
        if channels < 3 {
            for i in 0..<n { out[i] = samples[i * channels] }
        } else {
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<n {
                    let p = i * channels
                    o[i] = UInt8((UInt16(samples[p]) + UInt16(samples[p + 1]) + UInt16(samples[p + 2])) / 3)
                }
            }
        }
        try self.init(width: width, height: height, pixels: out)
    }

    /// This image resampled so its long side is `longSide` pixels: bilinear, after an integer box pre-shrink when
    /// shrinking by 2× or more (bilinear alone would alias fine texture into false edges).
    public func resized(longSide: Int) -> GreyImage {
        let scale = Double(longSide) / Double(max(width, height))
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        if w == width && h == height { return self }
        var source = self
        let factor = Int(1 / scale)
        if factor >= 2 { source = boxShrunk(by: factor) }
        return source.bilinear(width: w, height: h)
    }

    private func boxShrunk(by factor: Int) -> GreyImage {
        let w = width / factor, h = height / factor
        var out = [UInt8](repeating: 0, count: w * h)
        let area = UInt32(factor * factor)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    for x in 0..<w {
                        var sum: UInt32 = 0
                        for dy in 0..<factor {
                            let row = (y * factor + dy) * width + x * factor
                            for dx in 0..<factor { sum += UInt32(p[row + dx]) }
                        }
                        o[y * w + x] = UInt8((sum + area / 2) / area)
                    }
                }
            }
        }
        return GreyImage(unchecked: w, h, out)
    }

    private func bilinear(width w: Int, height h: Int) -> GreyImage {
        var out = [UInt8](repeating: 0, count: w * h)
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        // Per-column source indices and weights, computed once (pixel centres map to pixel centres).
        var x0 = [Int](repeating: 0, count: w), fx = [Float](repeating: 0, count: w)
        for x in 0..<w {
            let s = min(Double(width - 1), max(0, (Double(x) + 0.5) * sx - 0.5))
            x0[x] = min(Int(s), width - 2 < 0 ? 0 : width - 2)
            fx[x] = Float(s - Double(x0[x]))
        }
        let stepX = width > 1 ? 1 : 0
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    let s = min(Double(height - 1), max(0, (Double(y) + 0.5) * sy - 0.5))
                    let y0 = min(Int(s), max(0, height - 2)), fy = Float(s - Double(y0))
                    let r0 = y0 * width, r1 = (height > 1 ? y0 + 1 : y0) * width
                    for x in 0..<w {
                        let a = x0[x], t = fx[x]
                        let top = Float(p[r0 + a]) + (Float(p[r0 + a + stepX]) - Float(p[r0 + a])) * t
                        let bottom = Float(p[r1 + a]) + (Float(p[r1 + a + stepX]) - Float(p[r1 + a])) * t
                        o[y * w + x] = UInt8(top + (bottom - top) * fy + 0.5)
                    }
                }
            }
        }
        return GreyImage(unchecked: w, h, out)
    }

    private init(unchecked width: Int, _ height: Int, _ pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
