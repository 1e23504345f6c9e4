/// Values by key within a byte budget: storing past the budget drops the least recently used entries first, and a
/// value larger than the whole budget is not kept. Not locked: the studio session holds it under its own lock.
struct StudioCache<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var bytes: Int
        var lastUse: UInt64
    }

    /// Most bytes the entries may hold together.
    let budget: Int
    /// Bytes the entries hold now; never above `budget`.
    private(set) var bytes = 0
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0

    init(budget: Int) { self.budget = budget }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard entries[key] != nil else { return nil }
        clock += 1
        entries[key]!.lastUse = clock
        return entries[key]!.value
    }

    /// Keeps `value` (`bytes` large) for `key`, dropping the least recently used entries until it fits.
    mutating func store(_ value: Value, bytes size: Int, for key: Key) {
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        guard size <= budget else { return }
        // A scan per eviction: the studio keeps tens of entries, not thousands.
        while bytes + size > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.bytes
            entries.removeValue(forKey: oldest.key)
        }
        clock += 1
        entries[key] = Entry(value: value, bytes: size, lastUse: clock)
        bytes += size
    }
}
