/// How many whole rows a band of samples holds, checked against what an image writer still accepts.
enum RowCount {
    /// The number of rows in `samples`, or an error naming `path` when they are not whole rows of `rowSamples`
    /// or would run past `height` after `written` rows.
    static func check(samples: Int, rowSamples: Int, written: Int, height: Int, path: String)
        throws(ImageIOError) -> Int {
        guard samples % rowSamples == 0 else {
            throw .invalidRows(file: path, detail: "\(samples) samples are not whole rows of \(rowSamples)")
        }
        let count = samples / rowSamples
        guard count <= height - written else {
            throw .invalidRows(file: path, detail: "\(count) more rows would exceed the image height \(height) "
                               + "(\(written) written)")
        }
        return count
    }
}
