/// What a workflow refuses, with what to change.
public enum WorkflowsError: Error, CustomStringConvertible, Sendable, Equatable {
    case missingPhoto(String)
    case unreadablePhoto(name: String, String)
    case noSuchPhoto(Int)
    case tooLarge(name: String, Int)
    case badSize(Int)
    case badStrength(Double)
    case badFormat(String)
    case badRequest(String)

    public var description: String {
        switch self {
        case .missingPhoto(let path): return "\(path): no such file or folder"
        case .unreadablePhoto(let name, let reason): return "\(name): cannot read the photo: \(reason)"
        case .noSuchPhoto(let id): return "no photo \(id) in this studio session (see GET /api/photos)"
        case .tooLarge(let name, let bytes):
            return "\(name): \(bytes) bytes is over the \(StudioSession.maxUploadBytes >> 20) MB limit for a "
                + "dropped photo"
        case .badSize(let size): return "size \(size) is out of range"
        case .badStrength(let s): return "strength \(s) is out of range: use 0…200"
        case .badFormat(let f):
            return "unknown format \"\(f)\": use cube, 3dl or png for looks, f32, u8 or u16 for cubes"
        case .badRequest(let why): return "bad request: \(why)"
        }
    }
}
