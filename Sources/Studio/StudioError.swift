/// What the studio's server refuses or cannot do, with what to change.
public enum StudioError: Error, CustomStringConvertible, Sendable, Equatable {
    case portInUse(Int)

    public var description: String {
        switch self {
        case .portInUse(let port):
            return "port \(port) on 127.0.0.1 is in use (another studio?): pick another with --port N, or --port 0 "
                + "for any free one"
        }
    }
}
