/// Errors from face detection.
public enum FaceDetectionError: Error, Equatable, CustomStringConvertible {
    /// dlib's detector could not be built (its model is compiled into libdlib, so this means a broken install).
    case unavailable(reason: String)
    /// The image handed to the detector is not usable (`reason` says why).
    case invalidImage(reason: String)
    /// dlib failed while detecting (out of memory, or an exception it raised).
    case failed(reason: String)

    public var description: String {
        switch self {
        case .unavailable(let reason):
            return "the face detector could not be built (\(reason)); reinstall libdlib-dev (make deps)"
        case .invalidImage(let reason):
            return "face detection: \(reason)"
        case .failed(let reason):
            return "face detection failed: \(reason)"
        }
    }
}
