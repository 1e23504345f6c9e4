import Dispatch
import Foundation
import LookCore
import LookStudioKit
import Testing

/// One engine, many threads: every output equals the one a single thread renders.
@Suite struct ThreadTests {
    /// Seconds the threads run (`LOOKSTUDIO_STRESS_SECONDS`; the 30-second run is `make test-sdk-threads`).
    static let seconds = Double(ProcessInfo.processInfo.environment["LOOKSTUDIO_STRESS_SECONDS"] ?? "") ?? 2

    @Test func eightThreadsApplyingDifferentLooksGiveTheSingleThreadedBytes() throws {
        let engine = try Fixture.engine.get()
        let image = try Fixture.pixels8(try Fixture.synthetic(width: 160, height: 120, channels: 3, depth: .eight))
        let looks = try Fixture.lookGUIDs(8)
        #expect(looks.count == 8)
        let params = looks.enumerated().map { Params(look: $1, lookStrength: Double(40 + 20 * $0)) }
        let expected = try params.map { try engine.apply($0, to: image).samples }
        let mismatches = Locked(0), renders = Locked(0), failures = Locked<[String]>([])
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.seconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var round = 0
            while DispatchTime.now().uptimeNanoseconds < deadline {
                let k = (thread + round) % params.count
                do {
                    if try engine.apply(params[k], to: image).samples != expected[k] { mismatches.withLock { $0 += 1 } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                renders.withLock { $0 += 1 }
                round += 1
            }
        }
        #expect(failures.current.isEmpty, "\(failures.current.prefix(3))")
        #expect(mismatches.current == 0)
        #expect(renders.current >= 8)
    }
}
