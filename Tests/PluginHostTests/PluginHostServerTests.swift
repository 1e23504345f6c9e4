import Foundation
@testable import PluginHost
import Testing

/// The child checks the values of an `evaluate` frame itself: a parent (or anything writing to its stdin) cannot
/// hand a plugin a curve that breaks its descriptor.
@Suite("Plugin host child (PluginHostServer.swift)")
struct PluginHostServerTests {
    /// Sends one `evaluate` frame for adjustment `index` with `values` (raw floats per parameter) over 2 pixels and
    /// returns the answer's kind and text.
    private func evaluate(_ process: PluginHostProcess, index: UInt32, values: [[Float]]) throws
        -> (PluginHostFrame.Kind, String)
    {
        let words = [index, UInt32(values.count)] + values.map { UInt32($0.count) }
        let floats = values.flatMap { $0 } + [Float](repeating: 0.5, count: 6)
        let deadline = ContinuousClock.now + .seconds(10)
        try words.map(\.littleEndian).withUnsafeBytes { head in
            try floats.withUnsafeBytes { try process.channel.send(.evaluate, [head, $0], deadline: deadline) }
        }
        let (kind, length) = try process.channel.receiveHeader(deadline: deadline)
        let payload = try process.channel.receiveBytes(length, deadline: deadline)
        return (kind, String(decoding: payload, as: UTF8.self))
    }

    @Test("the child refuses values that break a descriptor with a failure naming adjustment and parameter")
    func childChecksValues() throws {
        let directory = try PluginTestSupport.typedPluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = try PluginHostProcess.start(executable: try IsolationTests.configuration().executable)
        let request = try JSONEncoder().encode(LoadRequest(searchPaths: [directory], excluded: []))
        try process.channel.send(.load, bytes: Array(request), deadline: .now + .seconds(10))
        var registry: RegistryMessage?
        while registry == nil {
            let (kind, length) = try process.channel.receiveHeader(deadline: .now + .seconds(10))
            let payload = try process.channel.receiveBytes(length, deadline: .now + .seconds(10))
            if kind == .registry { registry = try JSONDecoder().decode(RegistryMessage.self, from: Data(payload)) }
        }
        let grade = try #require(registry?.adjustments.firstIndex { $0.id == "typed.grade" })
        let good: [[Float]] = [[0, 0, 1, 1], [1, 1, 1], [0]]
        #expect(try evaluate(process, index: UInt32(grade), values: good).0 == .result)
        let backwards = try evaluate(process, index: UInt32(grade), values: [[0, 0, 0.5, 0.5, 0.25, 1], [1, 1, 1], [0]])
        #expect(backwards == (.failure, "typed.grade parameter master: point 3 x=0.25 is not after point 2 x=0.5"))
        let odd = try evaluate(process, index: UInt32(grade), values: [[0, 0, 1], [1, 1, 1], [0]])
        #expect(odd == (.failure, "typed.grade parameter master: 3 floats for a curve"))
        let option = try evaluate(process, index: UInt32(grade), values: [[0, 0, 1, 1], [1, 1, 1], [2]])
        #expect(option == (.failure, "typed.grade parameter style: option index 2 is outside 0…1"))
        let missing = try evaluate(process, index: UInt32(grade), values: [[0, 0, 1, 1]])
        #expect(missing == (.failure, "no adjustment #\(grade) with 1 parameters"))
    }
}
