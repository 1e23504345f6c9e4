import ImageIO
import LookCore
import Testing
@testable import Rendering

/// `extract --report`'s coverage picture: the cells as before, and now labelled — a legend that names both shades
/// and axes on every panel.
struct CoverageChartTests {
    static func pixel(_ image: PixelBuffer, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        guard case .eight(let s) = image.samples else { return (0, 0, 0) }
        let i = 3 * (y * image.width + x)
        return (s[i], s[i + 1], s[i + 2])
    }

    static func whitePixels(_ image: PixelBuffer, rows: Range<Int>, columns: Range<Int>) -> Int {
        var count = 0
        for y in rows { for x in columns where pixel(image, x, y) == (255, 255, 255) { count += 1 } }
        return count
    }

    @Test("the legend names the shades, each panel has its blue level and R and G axes, cells keep their colours")
    func labelledChart() throws {
        let size = 9, cells = size - 1
        let cube = try ColorCube.identity(size: size)
        // Observed: the lower half of red only, so both shades appear in every panel.
        let observed = (0..<(cells * cells * cells)).map { $0 % cells < cells / 2 }
        let chart = try CoverageChart.render(cube: cube, observedCells: observed, interpolation: .tetrahedral)
        let line = Canvas.textHeight(scale: CoverageChart.textScale), gap = 12
        let legendHeight = 3 * line + 2 * gap
        #expect(Self.whitePixels(chart, rows: 0..<legendHeight, columns: 0..<chart.width) > 500,
                "the legend's three lines are drawn")
        // The first panel: its top-left cell (red 0, green at the top) is observed and keeps the identity's colour;
        // the top-right one is dimmed.
        let left = Canvas.textWidth("G^", scale: CoverageChart.textScale) + 4
        let ox = gap + left, oy = legendHeight + line + 4, cell = CoverageChart.cellPixels
        let expected = CoverageChart.shade(SIMD3(0.5, Float(cells - 1) + 0.5, 0.5) / Float(cells), observed: true)
        #expect(Self.pixel(chart, ox + cell / 2, oy + cell / 2) == expected)
        let dim = CoverageChart.shade(SIMD3(Float(cells - 1) + 0.5, Float(cells - 1) + 0.5, 0.5) / Float(cells),
                                      observed: false)
        #expect(Self.pixel(chart, ox + (cells - 1) * cell + cell / 2, oy + cell / 2) == dim)
        let panel = cells * cell
        #expect(Self.whitePixels(chart, rows: (oy - line - 4)..<oy, columns: ox..<(ox + panel)) > 40,
                "the panel's blue level above it")
        #expect(Self.whitePixels(chart, rows: (oy + panel)..<(oy + panel + line + 2), columns: ox..<(ox + panel)) > 20,
                "the red axis under it")
        #expect(Self.whitePixels(chart, rows: oy..<(oy + line), columns: (ox - left)..<ox) > 20, "the green axis")
    }
}
