/// A scene of the catalogue: the numbers are the catalog's scene labels, stable across versions.
public enum SceneLabel: Int, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case people = 1
    case newborn = 2
    case groupPortraits = 7
    case whiteBackgrounds = 8
    case peopleAtNight = 9
    case animals = 57
    case foodAndDrinks = 58
    case flowers = 59
    case landscape = 60
    case underwater = 91
    case blackAndWhite = 100

    /// The catalogue's display name.
    public var name: String {
        switch self {
        case .people: return "Auto — People"
        case .newborn: return "Newborn"
        case .groupPortraits: return "Group Portraits"
        case .whiteBackgrounds: return "White Backgrounds"
        case .peopleAtNight: return "People at Night"
        case .animals: return "Animals"
        case .foodAndDrinks: return "Food & Drinks"
        case .flowers: return "Flowers"
        case .landscape: return "Auto — Landscape"
        case .underwater: return "Underwater"
        case .blackAndWhite: return "Black & White"
        }
    }
}
