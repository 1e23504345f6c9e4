import HTTPTypes

/// A request the API refuses with a status and message of its own (`StudioRoutes.run` sends `{"error": …}`).
struct StudioAPIError: Error, CustomStringConvertible {
    /// The HTTP status of the answer.
    var status: HTTPResponse.Status
    /// The `error` text: what was refused and what to do instead.
    var description: String

    /// A refused request, answered with 400 unless another status is given.
    init(_ description: String, status: HTTPResponse.Status = .badRequest) {
        self.status = status
        self.description = description
    }
}
