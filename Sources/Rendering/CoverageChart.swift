import ImageIO
import LookCore

/// The picture of which colours a fitted look's photo pairs showed: eight blue slices of the lattice, each cell in
/// the look's colour where the pairs showed it and dimmed where the look is extrapolated, with axes and a legend.
public enum CoverageChart {
    /// Pixels per lattice cell, and per font dot of the labels.
    static let cellPixels = 8, textScale = 2
    static let slices = 8, columns = 4

    /// The chart for `cube` whose cells (`(size − 1)³`, red fastest) were observed where `observedCells` is true.
    public static func render(cube: ColorCube, observedCells: [Bool], interpolation: Interpolation)
        throws(ImageIOError) -> PixelBuffer {
        let cellsPerAxis = cube.size - 1
        let panel = cellsPerAxis * cellPixels
        let line = Canvas.textHeight(scale: textScale), gap = 12
        let left = Canvas.textWidth("G^", scale: textScale) + 4
        let blockWidth = left + panel + gap, blockHeight = line + 4 + panel + line + gap
        let legendHeight = 3 * line + 2 * gap
        let rows = (slices + columns - 1) / columns
        let width = max(columns * blockWidth + gap, Canvas.textWidth(legend[0], scale: textScale) + 2 * gap)
        var canvas = Canvas(width: width, height: legendHeight + rows * blockHeight, background: 40)
        let sampler = CubeSampler(cube)
        drawLegend(on: &canvas, line: line, gap: gap, sampler: sampler, interpolation: interpolation)
        for s in 0..<slices {
            let cb = (s * (cellsPerAxis - 1)) / (slices - 1)
            let ox = gap + (s % columns) * blockWidth + left
            let oy = legendHeight + (s / columns) * blockHeight + line + 4
            for cg in 0..<cellsPerAxis {
                for cr in 0..<cellsPerAxis {
                    let centre = (SIMD3(Float(cr), Float(cg), Float(cb)) + 0.5) / Float(cellsPerAxis)
                    let observed = observedCells[cr + cellsPerAxis * (cg + cellsPerAxis * cb)]
                    let colour = shade(sampler.sample(centre, interpolation: interpolation), observed: observed)
                    // Green grows upwards, as in a chart.
                    canvas.fill(ox + cr * cellPixels, oy + (cellsPerAxis - 1 - cg) * cellPixels, cellPixels,
                                cellPixels, colour)
                }
            }
            let blue = Double(cb) + 0.5
            canvas.text("BLUE " + twoDecimals(blue / Double(cellsPerAxis)), x: ox, y: oy - line - 4,
                        scale: textScale)
            canvas.text("G^", x: ox - left, y: oy, scale: textScale)
            canvas.text("0", x: ox - Canvas.textWidth("0", scale: textScale) - 2, y: oy + panel - line,
                        scale: textScale)
            canvas.text("R>", x: ox, y: oy + panel + 2, scale: textScale)
            canvas.text("1", x: ox + panel - Canvas.textWidth("1", scale: textScale), y: oy + panel + 2,
                        scale: textScale)
        }
        return try canvas.image()
    }

    static let legend = [
        "EACH PANEL IS ONE BLUE LEVEL, RED 0-1 ACROSS, GREEN 0-1 UP, EACH CELL IN THE COLOUR THE LOOK GIVES IT",
        "COLOURS THE PHOTO PAIRS SHOWED",
        "NOT SHOWN: THE LOOK IS EXTRAPOLATED THERE (DIMMED)",
    ]

    private static func drawLegend(on canvas: inout Canvas, line: Int, gap: Int, sampler: CubeSampler,
                                   interpolation: Interpolation) {
        canvas.text(legend[0], x: gap, y: gap, scale: textScale)
        let swatch = line - 4
        let mid = sampler.sample(SIMD3(0.7, 0.55, 0.4), interpolation: interpolation)
        for (row, observed) in [(1, true), (2, false)] {
            let y = gap + row * (line + 4)
            canvas.fill(gap, y + 2, swatch, swatch, shade(mid, observed: observed))
            canvas.text(legend[row], x: gap + swatch + 6, y: y, scale: textScale)
        }
    }

    /// A cell's colour: the look's own where observed, else dimmed towards the background.
    static func shade(_ colour: SIMD3<Float>, observed: Bool) -> (UInt8, UInt8, UInt8) {
        let c = observed ? colour : 0.25 * colour + 0.1
        func code(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }
        return (code(c.x), code(c.y), code(c.z))
    }

    private static func twoDecimals(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
