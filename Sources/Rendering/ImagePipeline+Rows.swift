import ImageIO
import LookCore

extension ImagePipeline {
    /// Applies a prepared cube to rows in caller memory, writing `output` (the same shape; the same memory applies in
    /// place): the pipeline's per-pixel step without the file around it, so an embedding app's pixels get the bytes
    /// a file's decoded pixels get. Rows are copied chunk by chunk just before the cube reads them (still in cache);
    /// chunks are split over up to `threads` cores (nil: all) as `CubeApplier` splits a buffer.
    public static func apply(_ prepared: Prepared, from input: PixelRows, to output: PixelRows,
                             threads: Int? = nil) throws {
        try checkOutput(output, for: input)
        let inPlace = input.isSameMemory(as: output)
        let applier = prepared.applier
        let failure = Locked<(any Error)?>(nil)
        let contiguous = output.rowBytes == output.rowLength
        WorkChunks.run(count: input.height, minChunk: Swift.max(1, (1 << 16) / input.width), threads: threads) { rows in
            if !inPlace {
                for y in rows { output.row(y).copyMemory(from: input.row(y), byteCount: input.rowLength) }
            }
            do {
                if contiguous {
                    try applyRun(applier, output, from: rows.lowerBound, rows: rows.count)
                } else {
                    for y in rows { try applyRun(applier, output, from: y, rows: 1) }
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.current { throw error }
    }

    /// Applies the cube on one thread to `count` rows from `first` on, which lie back to back in memory.
    private static func applyRun(_ applier: CubeApplier, _ image: PixelRows, from first: Int, rows count: Int) throws {
        let samples = image.rowSamples * count
        switch image.depth {
        case .eight:
            let p = image.row(first).assumingMemoryBound(to: UInt8.self)
            try applier.apply(to: UnsafeMutableBufferPointer(start: p, count: samples), channels: image.channels,
                              threads: 1)
        case .sixteen:
            let p = image.row(first).assumingMemoryBound(to: UInt16.self)
            try applier.apply(to: UnsafeMutableBufferPointer(start: p, count: samples), channels: image.channels,
                              threads: 1)
        }
    }

    /// Refuses an output of another shape than the input, or one that overlaps it without being the same rows.
    private static func checkOutput(_ output: PixelRows, for input: PixelRows) throws(RenderingError) {
        guard output.width == input.width, output.height == input.height, output.channels == input.channels,
              output.depth == input.depth else {
            throw .outputMismatch("the output is \(output.width)×\(output.height), \(output.channels) channels, "
                                  + "\(output.depth.rawValue) bits; it must match the input: \(input.width)×"
                                  + "\(input.height), \(input.channels) channels, \(input.depth.rawValue) bits")
        }
        if !input.isSameMemory(as: output), input.overlaps(output) {
            throw .outputMismatch("the output's memory overlaps the input's: give separate buffers, or the input's "
                                  + "own rows (same pointer and stride) to apply in place")
        }
    }
}
