import Foundation

/// Reads API bodies with errors a person can act on: the field's path and what was wrong with it (`recipe: missing`,
/// `size: expected a whole number`), never the text of Swift's `DecodingError`.
enum StudioJSON {
    /// Numbers `misfitNumber` tries before giving up on naming the field (a recipe has tens).
    static let misfitProbes = 64

    /// `T` from `data`, or a 400 naming the field and the problem.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw StudioAPIError("the JSON body does not match the API (README, \"The studio\"): "
                + problem(error, decoding: T.self, from: data))
        }
    }

    /// `PATH: what is wrong`, for the error decoding `data` as `T` gave.
    static func problem<T: Decodable>(_ error: DecodingError, decoding: T.Type, from data: Data) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return path(context.codingPath + [key]) + ": missing"
        case .valueNotFound(let expected, let context):
            return path(context.codingPath) + ": expected \(kind(expected)), not null"
        case .typeMismatch(let expected, let context):
            return path(context.codingPath) + ": expected \(kind(expected))"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return path(context.codingPath) + ": " + context.debugDescription
        case .dataCorrupted:
            return misfitNumber(decoding: T.self, from: data) ?? "not valid JSON"
        @unknown default:
            return "\(error)"
        }
    }

    /// `recipe.steps[0].params`: keys joined by dots, array positions in brackets; "the body" for the top level.
    static func path(_ keys: [any CodingKey]) -> String {
        path(keys.map { key in
            key.intValue.flatMap { key.stringValue == "Index \($0)" ? .index($0) : nil } ?? .key(key.stringValue)
        })
    }

    /// One step of a path into a JSON value.
    enum Place: Equatable {
        case key(String)
        case index(Int)
    }

    static func path(_ places: [Place]) -> String {
        guard !places.isEmpty else { return "the body" }
        var text = ""
        for place in places {
            switch place {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// What a field of `type` holds, as the API's documentation says it.
    static func kind(_ type: Any.Type) -> String {
        if type is any BinaryInteger.Type { return "a whole number" }
        if type is any BinaryFloatingPoint.Type { return "a number" }
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        return String(describing: type).hasPrefix("Array<") ? "a list" : "an object"
    }

    /// The field whose number does not fit it, which Foundation on Linux reports as "not valid JSON" with no path
    /// (33.5 or 1e30 where a whole number is expected): each number that could be it is put back as a string in
    /// turn, and the decoder then names the field and the type it expected. At most `misfitProbes` numbers are
    /// tried, each a whole decode of the body: a 4 MiB body of fractions would otherwise cost hours of CPU.
    static func misfitNumber<T: Decodable>(decoding: T.Type, from data: Data) -> String? {
        guard let tree = try? JSONSerialization.jsonObject(with: data) else { return nil }
        let candidates = numbers(in: tree, at: []).lazy.filter { $0.1.rounded() != $0.1 || abs($0.1) >= 0x1p63 }
        for (places, number) in candidates.prefix(misfitProbes) {
            guard let probe = try? JSONSerialization.data(withJSONObject: replacing(places[...], in: tree, with: "?"))
            else { continue }
            do {
                _ = try JSONDecoder().decode(T.self, from: probe)
            } catch DecodingError.typeMismatch(let expected, let context) {
                guard path(context.codingPath) == path(places) else { continue }
                // A fraction is fine where any number is expected: that field is not the one.
                if expected is any BinaryInteger.Type {
                    return path(places) + (number.rounded() == number ? ": the number is out of range"
                                                                       : ": expected a whole number")
                }
                if !number.isFinite { return path(places) + ": the number is out of range" }
            } catch {
                continue
            }
        }
        return nil
    }

    /// Every number in `node` with its path, in document order.
    static func numbers(in node: Any, at places: [Place]) -> [([Place], Double)] {
        switch node {
        case let object as [String: Any]:
            return object.keys.sorted().flatMap { numbers(in: object[$0]!, at: places + [.key($0)]) }
        case let array as [Any]:
            return array.enumerated().flatMap { numbers(in: $0.element, at: places + [.index($0.offset)]) }
        case let number as NSNumber:
            return [(places, number.doubleValue)]
        default:
            return []
        }
    }

    /// `node` with the value at `places` replaced by `value`.
    static func replacing(_ places: ArraySlice<Place>, in node: Any, with value: Any) -> Any {
        guard let place = places.first else { return value }
        switch (place, node) {
        case (.key(let key), var object as [String: Any]):
            object[key] = object[key].map { replacing(places.dropFirst(), in: $0, with: value) }
            return object
        case (.index(let index), var array as [Any]) where array.indices.contains(index):
            array[index] = replacing(places.dropFirst(), in: array[index], with: value)
            return array
        default:
            return node
        }
    }
}
