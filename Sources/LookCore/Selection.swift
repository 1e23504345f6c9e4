/// Order statistics by selection (Hoare's FIND with a median-of-three pivot): linear time rather than a sort's
/// n log n, for the quantiles the correction stage and its model read from an analysis copy.
public enum Selection {
    /// Reorders `values` so that the element at `k` is the one a sort would put there, with none before it larger
    /// and none after it smaller, and returns it. `values` must not be empty nor hold NaN.
    @inlinable
    public static func kthSmallest<T: Comparable>(_ values: UnsafeMutableBufferPointer<T>, _ k: Int) -> T {
        var (lo, hi) = (0, values.count - 1)
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if values[mid] < values[lo] { values.swapAt(mid, lo) }
            if values[hi] < values[lo] { values.swapAt(hi, lo) }
            if values[hi] < values[mid] { values.swapAt(hi, mid) }
            let pivot = values[mid]
            var (i, j) = (lo, hi)
            while i <= j {
                while values[i] < pivot { i += 1 }
                while pivot < values[j] { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return values[k]
    }
}
