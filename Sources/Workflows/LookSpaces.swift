import ColorManagement
import LookCatalog
import LookModel

/// A catalog look's working space, between the catalog's stored text and a profile.
public enum LookSpaces {
    /// The profile a look was authored in.
    public static func profile(of record: LookRecord) throws -> ColorProfile {
        if let icc = record.workingSpaceICC {
            return try ColorProfile(iccData: icc, source: "working space of look \(record.guid) (\(record.name))")
        }
        return try ColorProfile.named(record.workingSpace)
    }

    /// What `looks show` prints: the named space's title, or the ICC profile's description.
    public static func title(of record: LookRecord) -> String {
        if record.workingSpaceICC == nil, let named = ColorProfile.Named(argument: record.workingSpace) {
            return named.title
        }
        return record.workingSpace + (record.workingSpaceICC.map { " (ICC profile, \($0.count) bytes)" } ?? "")
    }

    /// The catalog's form of `--space WORD`: a named space's key, or an ICC file's description and bytes.
    public static func stored(_ word: String) throws -> (name: String, icc: [UInt8]?) {
        let profile = try ImageColor.profile(named: word)
        if let named = profile.named { return (named.rawValue, nil) }
        return (profile.description, profile.data)
    }
}
