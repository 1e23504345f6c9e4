/// Which image items decoding one HEIF item pulls in, read from the file's item-reference box ('meta' → 'iref').
///
/// libheif 1.15 follows these references recursively, with no loop check and a thread per grid tile: a grid listing
/// itself as its own tile (a fuzz finding) made it start threads until the process ran out of memory, and with tile
/// threads off it overflows the stack instead. Its API does not expose item references, so `HEIFImage.decode` reads
/// them here and refuses loops, deep nesting and runaway tile counts before libheif decodes anything. libheif also
/// aborts the process on an assertion when a derived image's input is not an image item (a later fuzz finding: an
/// identity image over an item whose type was damaged), so inputs are checked against the item types too.
struct HEIFDerivation: Sendable {
    /// Item → the items its decode also decodes: the inputs of a grid, identity or overlay ('dimg', in order, repeats
    /// kept: a grid may use one tile many times) and its auxiliary planes such as alpha ('auxl' points the other way).
    let inputs: [UInt32: [UInt32]]
    /// Item → its 'dimg' inputs alone: libheif decodes each of them as an image without checking it is one.
    let derivedFrom: [UInt32: [UInt32]]
    /// Item → its type from the 'iinf' box ("hvc1", "grid", "Exif", …); nil when the file has no readable 'iinf'
    /// (libheif refuses such a file before anything is decoded).
    let itemTypes: [UInt32: String]?

    /// The item types libheif 1.15 treats as images (`item_type_is_image`); an input of any other type is missing.
    static let imageTypes: Set<String> = ["hvc1", "grid", "iden", "iovl", "av01"]

    /// Why an item cannot be decoded safely.
    enum Problem: Error, Equatable, Sendable {
        /// The item is among its own inputs, directly or through others.
        case loop(item: UInt32)
        /// Derived images nest deeper than `limit` levels.
        case tooDeep(limit: Int)
        /// Decoding would decode more than `limit` images (tiles, inputs, planes) in all.
        case tooManyImages(limit: Int)
        /// `item` is derived from `input`, which is not an image item (`type` is its type, "" when it has none).
        case notAnImage(input: UInt32, type: String, item: UInt32)
    }

    /// Reads the references in the first top-level 'meta' box as libheif 1.15 does; a damaged box ends the reading
    /// (libheif, which read the same bytes first, rejects what it cannot parse).
    init(bytes: [UInt8]) {
        var inputs: [UInt32: [UInt32]] = [:], derivedFrom: [UInt32: [UInt32]] = [:]
        let meta = Self.boxes(bytes, in: 0..<bytes.count).first(where: { $0.type == "meta" })
        let children = meta.map {
            $0.body.count >= 4 ? Self.boxes(bytes, in: $0.body.lowerBound + 4..<$0.body.upperBound) : []
        }
        if let iref = children?.first(where: { $0.type == "iref" }), iref.body.count >= 4 {
            let idBytes = bytes[iref.body.lowerBound] == 0 ? 2 : 4
            // libheif reads each reference's box header and then its item IDs straight on, never checking them against
            // that box's declared size (a second fuzz finding declared 9 MB): so this reads the same way, bounded only
            // by the 'iref' box.
            var at = iref.body.lowerBound + 4
            let end = iref.body.upperBound
            while at + 8 <= end {
                let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
                at += (Self.integer(bytes, at, 4) == 1 ? 16 : 8) + (type == "uuid" ? 16 : 0)
                guard at + idBytes + 2 <= end else { break }
                let from = Self.integer(bytes, at, idBytes)
                let count = Int(Self.integer(bytes, at + idBytes, 2))
                at += idBytes + 2
                var to: [UInt32] = []
                for _ in 0..<count where at + idBytes <= end {
                    to.append(Self.integer(bytes, at, idBytes))
                    at += idBytes
                }
                switch type {
                case "dimg":
                    inputs[from, default: []] += to
                    derivedFrom[from, default: []] += to
                case "auxl": for master in to { inputs[master, default: []].append(from) }
                default: break
                }
            }
        }
        self.inputs = inputs
        self.derivedFrom = derivedFrom
        itemTypes = children?.first(where: { $0.type == "iinf" }).map { Self.itemTypes(bytes, iinf: $0.body) }
    }

    /// The item types an 'iinf' box declares, read as libheif 1.15 does: at most its entry count of child boxes;
    /// 'infe' version 2 and 3 carry an ID (16 or 32 bits) and a four-character type, earlier versions no type; the
    /// first entry for an ID counts.
    private static func itemTypes(_ bytes: [UInt8], iinf body: Range<Int>) -> [UInt32: String] {
        guard body.count >= 4 else { return [:] }
        let countBytes = bytes[body.lowerBound] == 0 ? 2 : 4
        guard body.count >= 4 + countBytes else { return [:] }
        let count = Int(integer(bytes, body.lowerBound + 4, countBytes))
        var types: [UInt32: String] = [:]
        for entry in boxes(bytes, in: body.lowerBound + 4 + countBytes..<body.upperBound).prefix(count)
        where entry.type == "infe" && entry.body.count >= 4 {
            let version = bytes[entry.body.lowerBound]
            let idBytes = version == 3 ? 4 : 2
            var at = entry.body.lowerBound + 4
            guard at + idBytes <= entry.body.upperBound else { continue }
            let id = integer(bytes, at, idBytes)
            at += idBytes + 2
            let type = version >= 2 && at + 4 <= entry.body.upperBound
                ? String(decoding: bytes[at..<at + 4], as: UTF8.self) : ""
            if types[id] == nil { types[id] = type }
        }
        return types
    }

    /// The first problem decoding `item` would run into, or nil when its references form a tree at most `maxDepth`
    /// levels deep that expands to at most `maxImages` decodes.
    func problem(decoding item: UInt32, maxDepth: Int, maxImages: Int) -> Problem? {
        var finished: [UInt32: (images: Int, depth: Int)] = [:]
        var open: Set<UInt32> = []
        // Depth-first, so the recursion is at most maxDepth + 1 calls deep before it gives up.
        func visit(_ item: UInt32, level: Int) throws(Problem) -> (images: Int, depth: Int) {
            if let known = finished[item] {
                // Reached again by a longer path: its inputs are that much deeper now.
                guard level + known.depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
                return known
            }
            guard !open.contains(item) else { throw .loop(item: item) }
            guard level <= maxDepth else { throw .tooDeep(limit: maxDepth) }
            open.insert(item)
            defer { open.remove(item) }
            if let itemTypes {
                for input in derivedFrom[item] ?? [] {
                    let type = itemTypes[input] ?? ""
                    guard Self.imageTypes.contains(type) else {
                        throw .notAnImage(input: input, type: type, item: item)
                    }
                }
            }
            var images = 1, depth = 0
            for input in inputs[item] ?? [] {
                let below = try visit(input, level: level + 1)
                images += below.images
                depth = max(depth, below.depth + 1)
                guard images <= maxImages else { throw .tooManyImages(limit: maxImages) }
            }
            finished[item] = (images, depth)
            return (images, depth)
        }
        do {
            _ = try visit(item, level: 0)
            return nil
        } catch {
            return error
        }
    }

    /// What a user reads for `problem`.
    static func describe(_ problem: Problem) -> String {
        switch problem {
        case .loop(let item):
            return "image item \(item) is built from itself (a loop in its 'dimg'/'auxl' references); the file is "
                + "damaged, export it again from the original"
        case .tooDeep(let limit):
            return "derived images nest more than \(limit) levels deep; the file is damaged or hostile"
        case .tooManyImages(let limit):
            return "decoding it takes more than \(limit) tile and plane decodes for its declared size; the file is "
                + "damaged or hostile"
        case .notAnImage(let input, let type, let item):
            return "image item \(item) is derived from item \(input), which is not an image ("
                + (type.isEmpty ? "it has no item type" : "its type is '\(type)'") + "); the file is damaged"
        }
    }

    /// Boxes laid end to end in `range`: each a 32-bit size (1: a 64-bit size follows; 0: to the end) and a type.
    private static func boxes(_ bytes: [UInt8], in range: Range<Int>) -> [(type: String, body: Range<Int>)] {
        var found: [(type: String, body: Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(integer(bytes, at, 4)), header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { break }
                let large = UInt64(integer(bytes, at + 8, 4)) << 32 | UInt64(integer(bytes, at + 12, 4))
                guard large <= UInt64(range.upperBound - at) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            found.append((type, at + header..<at + size))
            at += size
        }
        return found
    }

    /// A big-endian unsigned integer of `count` (≤ 4) bytes at `at`.
    private static func integer(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt32 {
        bytes[at..<at + count].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
