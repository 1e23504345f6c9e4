import Foundation

/// The shoot cases scripts/train/shoot-cases.py writes (shoots.json and its images), as `bench correct --shoots`
/// reads them.
public struct ShootCases: Sendable, Decodable {
    /// Where scripts/corpus.sh writes the test split's shoot cases.
    public static let defaultDirectory = ".corpus/cases/shoots"

    /// How to get the shoot cases when they are missing.
    public static let howToGet = """
        run scripts/corpus.sh from the project folder (it installs the photo packages with apt-get, extracts the \
        corpus into .corpus/ and writes the shoot cases into .corpus/cases/shoots), or, with the corpus already \
        there: cd scripts/train && python3 shoot-cases.py corpus-manifest.csv ../../.corpus ../../.corpus/cases/shoots
        """

    /// One photo of a shoot: its good file, the faulted file the correction sees (the good one when the shoot is
    /// untouched) and the exact inverse of the fault (nil when untouched).
    public struct Photo: Sendable, Decodable {
        /// File names in the cases folder.
        public var good: String, faulted: String, oracle: String?
    }

    /// One shoot: its photos all under one fault, or none.
    public struct Shoot: Sendable, Decodable {
        /// The shoot's id, `photos` (photos of one source unit) or `crops` (crops of one photo), and the unit.
        public var id: String, kind: String, unit: String
        /// The fault family (`under`, `warm`, …) or `untouched`.
        public var family: String
        /// The shoot's photos.
        public var photos: [Photo]
    }

    /// The split the shoots came from, its fault families in order, and how many photos make a shoot.
    public var split: String, families: [String]
    /// Photos per shoot.
    public var shootSize: Int
    /// Every shoot.
    public var shoots: [Shoot]

    enum CodingKeys: String, CodingKey { case split, families, shootSize = "shoot_size", shoots }

    /// Reads `directory`/shoots.json, or says how to get it.
    public static func read(directory: String) throws -> ShootCases {
        let listing = directory + "/shoots.json"
        guard let data = FileManager.default.contents(atPath: listing) else {
            throw BenchError.failed("no shoot cases at \(listing): \(howToGet)")
        }
        do {
            return try JSONDecoder().decode(ShootCases.self, from: data)
        } catch {
            throw BenchError.failed("\(listing) is not a shoots file written by scripts/train/shoot-cases.py: \(error)")
        }
    }
}
