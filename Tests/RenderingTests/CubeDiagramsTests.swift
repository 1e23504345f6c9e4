import ImageIO
import LookCore
import Rendering
import Testing

@Suite("Cube diagrams")
struct CubeDiagramsTests {
    @Test("the grey-axis curves of an inverting cube fall from 1 to 0")
    func curves() throws {
        let invert = try ColorCube(size: 5) { SIMD3(repeating: 1) - $0 }
        let curves = CubeDiagrams.greyCurves(invert, count: 5)
        #expect(curves.inputs == [0, 0.25, 0.5, 0.75, 1])
        #expect(curves.red == [1, 0.75, 0.5, 0.25, 0])
        #expect(curves.blue == curves.red && curves.green == curves.red)
    }

    @Test("a slice runs through the hues at full saturation on top and is grey at the bottom")
    func inputSlice() throws {
        let slice = try CubeDiagrams.slice(value: 1, cube: nil)
        #expect(slice.width == CubeDiagrams.sliceWidth && slice.height == CubeDiagrams.sliceHeight)
        func rgb(_ x: Int, _ y: Int) -> [Float] { (0..<3).map { slice.normalized(x: x, y: y, channel: $0) } }
        #expect(rgb(0, 0)[0] == 1 && rgb(0, 0)[2] == 0)                      // red end
        let third = CubeDiagrams.sliceWidth / 3 + 1                          // just past 120°: green
        #expect(rgb(third, 0)[1] == 1 && rgb(third, 0)[0] < 0.1)
        let bottom = rgb(50, CubeDiagrams.sliceHeight - 1)
        #expect(bottom == [1, 1, 1])                                          // saturation 0 at value 1: white
    }

    @Test("a slice through a cube is the input slice with the cube applied")
    func throughCube() throws {
        let swap = try ColorCube(size: 9) { SIMD3($0.z, $0.y, $0.x) }
        let before = try CubeDiagrams.slice(value: 0.65, cube: nil)
        let after = try CubeDiagrams.slice(value: 0.65, cube: swap)
        for (x, y) in [(0, 0), (37, 5), (90, 20), (119, 39)] {
            #expect(abs(after.normalized(x: x, y: y, channel: 0) - before.normalized(x: x, y: y, channel: 2)) <= 1 / 255)
            #expect(abs(after.normalized(x: x, y: y, channel: 2) - before.normalized(x: x, y: y, channel: 0)) <= 1 / 255)
        }
    }
}
