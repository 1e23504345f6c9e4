import Foundation
import PluginABI
import Testing

@Suite("Grade plugin: its version 2 descriptor follows lookstudio_plugin.h")
struct DescriptorTests {
    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, ("a"..."z").contains(first), s.utf8.count <= 256 else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// lookstudio_plugin.h: an option name is a name that may also hold '-' ("no-clamp").
    static func isOptionName(_ s: String) -> Bool { isName(s.replacingOccurrences(of: "-", with: "_")) }

    @Test("ABI version 2, the nine grading adjustments, ids of the form domain.name and unique")
    func adjustments() throws {
        let plugin = try GradeLibrary.plugin()
        #expect(plugin.abiVersion == 2)
        let ids = plugin.adjustments.map(\.id)
        #expect(ids.sorted() == GradeCases.ids.sorted())
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parts = id.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.count == 2 && parts.allSatisfy(Self.isName), "\(id)")
        }
    }

    @Test("descriptions are within 4096 bytes and free of control characters")
    func descriptions() throws {
        for adjustment in try GradeLibrary.plugin().adjustments {
            let text = adjustment.description
            #expect(!text.isEmpty && text.utf8.count <= 4096, "\(adjustment.id): \(text.utf8.count) bytes")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(adjustment.id)")
        }
    }

    @Test("parameters: valid names and kinds, counts that fit the kind, defaults and identities within range",
          arguments: GradeCases.ids)
    func parameters(id: String) throws {
        let parameters = try GradeLibrary.adjustment(id).parameters
        #expect(Set(parameters.map(\.name)).count == parameters.count, "\(id): parameter names are unique")
        for p in parameters {
            let label = "\(id).\(p.name)"
            #expect(Self.isName(p.name), "\(label)")
            #expect(p.min.isFinite && p.max.isFinite && p.min <= p.max, "\(label)")
            for values in [p.defaultValues, p.identityValues] {
                switch Int(p.kind) {
                case Int(LOOKSTUDIO_PARAM_CURVE): checkCurve(p, values, label)
                case Int(LOOKSTUDIO_PARAM_COLOR):
                    #expect(values.count == 3 && values.allSatisfy { p.min <= $0 && $0 <= p.max }, "\(label)")
                    #expect(p.flags & ~LOOKSTUDIO_FLAG_WHEEL == 0, "\(label): only WHEEL on a colour")
                case Int(LOOKSTUDIO_PARAM_CHOICE):
                    #expect(p.choices.count >= 2 && p.choices.allSatisfy(Self.isOptionName), "\(label)")
                    #expect(p.min == 0 && p.max == Float(p.choices.count - 1), "\(label)")
                    #expect(values.count == 1 && values[0] == values[0].rounded() && p.min <= values[0]
                            && values[0] <= p.max, "\(label)")
                case Int(LOOKSTUDIO_PARAM_BOOL):
                    #expect(p.min == 0 && p.max == 1 && (values == [0] || values == [1]), "\(label)")
                case Int(LOOKSTUDIO_PARAM_SCALAR), Int(LOOKSTUDIO_PARAM_ANGLE), Int(LOOKSTUDIO_PARAM_KELVIN):
                    #expect(values.count == 1 && p.min <= values[0] && values[0] <= p.max, "\(label)")
                    #expect(p.flags == 0, "\(label)")
                default:
                    Issue.record("\(label): unknown kind \(p.kind)")
                }
            }
        }
    }

    private func checkCurve(_ p: GradeParameter, _ values: [Float], _ label: String) {
        let periodic = p.flags & LOOKSTUDIO_FLAG_PERIODIC != 0
        let points = values.count / 2
        #expect(values.count % 2 == 0 && points >= (periodic ? 1 : 2) && points <= p.maxPoints, "\(label)")
        #expect(p.maxPoints >= 2 && p.maxPoints <= Int(LOOKSTUDIO_MAX_CURVE_POINTS), "\(label)")
        #expect(p.flags & ~LOOKSTUDIO_FLAG_PERIODIC == 0, "\(label): only PERIODIC on a curve")
        let xs = stride(from: 0, to: values.count, by: 2).map { values[$0] }
        let ys = stride(from: 1, to: values.count, by: 2).map { values[$0] }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "\(label): x strictly increasing")
        #expect(xs.allSatisfy { p.xMin <= $0 && (periodic ? $0 < p.xMax : $0 <= p.xMax) }, "\(label): x in range")
        #expect(ys.allSatisfy { p.min <= $0 && $0 <= p.max }, "\(label): y in range")
    }

    @Test("the hue curves are periodic over 0…360°; curve.rgb and curve.lum_sat are not, over 0…1")
    func curveShapes() throws {
        for id in ["curve.hue_hue", "curve.hue_sat", "curve.hue_lum"] {
            let curve = try #require(try GradeLibrary.adjustment(id).parameters.first)
            #expect(curve.flags & LOOKSTUDIO_FLAG_PERIODIC != 0 && curve.xMin == 0 && curve.xMax == 360, "\(id)")
        }
        for id in ["curve.rgb", "curve.lum_sat"] {
            for curve in try GradeLibrary.adjustment(id).parameters {
                #expect(curve.flags == 0 && curve.xMin == 0 && curve.xMax == 1, "\(id).\(curve.name)")
            }
        }
        let cdl = try GradeLibrary.adjustment("grade.cdl").parameters
        #expect(cdl.map(\.name) == ["slope", "offset", "power", "saturation", "style"])
        #expect(cdl.last?.choices == ["asc", "no-clamp"] && cdl.last?.defaultValues == [0])
        let wheels = try GradeLibrary.adjustment("grade.lift_gamma_gain").parameters.prefix(3)
        #expect(wheels.allSatisfy { $0.flags == LOOKSTUDIO_FLAG_WHEEL && $0.identityValues == [0, 0, 0] })
    }
}
