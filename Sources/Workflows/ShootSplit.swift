import Foundation
import ImageMetadata

/// A folder's photos split into shoots by when and with what they were taken (`correct --shoot --shoot-gap`): one
/// shoot per camera and per run of photos with no gap longer than the limit between them. Photos without a capture
/// time stay together, as the folder's shoot would have held them.
public enum ShootSplit {
    /// One shoot: its photos (the run's file indices, in capture order) and the line that names it in reports.
    public struct Shoot: Sendable, Equatable {
        /// The run's file indices.
        public var members: [Int]
        /// The folder, and with a split its time span and camera.
        public var label: String
    }

    /// Splits `members` (of `folder`) by `captures` (by file index) wherever the camera differs or the capture
    /// time jumps by more than `gap` seconds; shoots ordered by camera, then time; undated photos last.
    public static func split(_ members: [Int], folder: String, captures: [Int: CaptureInfo], gap: Double) -> [Shoot] {
        let dated = members.filter { captures[$0]?.time != nil }
        let undated = members.filter { captures[$0]?.time == nil }
        let byCamera = Dictionary(grouping: dated) { captures[$0]?.camera ?? "" }
        var shoots = [Shoot]()
        for camera in byCamera.keys.sorted() {
            let run = (byCamera[camera] ?? []).sorted { (captures[$0]?.time ?? 0, $0) < (captures[$1]?.time ?? 0, $1) }
            var current = [Int]()
            for index in run {
                if let last = current.last, let t = captures[index]?.time, let s = captures[last]?.time, t - s > gap {
                    shoots.append(shoot(current, folder: folder, camera: camera, captures: captures))
                    current = []
                }
                current.append(index)
            }
            if !current.isEmpty { shoots.append(shoot(current, folder: folder, camera: camera, captures: captures)) }
        }
        if !undated.isEmpty { shoots.append(Shoot(members: undated, label: folder + " (no capture time)")) }
        return shoots
    }

    private static func shoot(_ members: [Int], folder: String, camera: String, captures: [Int: CaptureInfo])
        -> Shoot {
        let times = members.compactMap { captures[$0]?.time }
        let (first, last) = (stamp(times.min() ?? 0), stamp(times.max() ?? 0))
        // One day's shoot names its day once: "2026-05-01 10:00:00–10:05:00".
        let span = first.prefix(11) == last.prefix(11) ? "\(first)–\(last.dropFirst(11))" : "\(first)–\(last)"
        return Shoot(members: members, label: "\(folder) \(span)" + (camera.isEmpty ? "" : ", \(camera)"))
    }

    /// `2026-05-01 10:02:11`: the camera's wall clock, as EXIF records it.
    static func stamp(_ seconds: Double) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                        from: Date(timeIntervalSince1970: seconds.rounded(.down)))
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
                      c.minute ?? 0, c.second ?? 0)
    }
}
