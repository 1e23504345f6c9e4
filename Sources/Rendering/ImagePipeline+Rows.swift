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
        let block = Swift.max(1, (1 << 16) / input.width)
        WorkChunks.run(count: input.height, minChunk: block, threads: threads) { rows in
            // A worker's chunk is megabytes; copying a block of ~65,536 pixels at a time and applying the cube to it
            // at once keeps the rows in cache between the copy and the cube's read.
            for first in stride(from: rows.lowerBound, to: rows.upperBound, by: block) {
                let part = first..<Swift.min(rows.upperBound, first + block)
                if !inPlace {
                    for y in part { output.row(y).copyMemory(from: input.row(y), byteCount: input.rowLength) }
                }
                do {
                    if contiguous {
                        try applyRun(applier, output, from: part.lowerBound, rows: part.count)
                    } else {
                        for y in part { try applyRun(applier, output, from: y, rows: 1) }
                    }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
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
