import ImageIO

/// An 8-bit RGB picture to draw on: a copy of an image, or blank.
struct Canvas {
    let width: Int, height: Int
    var rgb: [UInt8]

    /// A blank canvas filled with `background`.
    init(width: Int, height: Int, background: UInt8) {
        self.width = width
        self.height = height
        rgb = [UInt8](repeating: background, count: width * height * 3)
    }

    /// A copy of `image` to draw on.
    init(_ image: PixelBuffer) {
        width = image.width
        height = image.height
        rgb = [UInt8](repeating: 0, count: width * height * 3)
        switch image.samples {
        case .eight(let s): copy(s, channels: image.channels) { $0 }
        case .sixteen(let s): copy(s, channels: image.channels) { UInt8($0 >> 8) }
        }
    }

    private mutating func copy<T>(_ samples: [T], channels c: Int, _ eight: (T) -> UInt8) {
        for i in 0..<(width * height) {
            for k in 0..<3 {
                // PixelBuffer holds RGB or RGBA; alpha is dropped.
                rgb[i * 3 + k] = eight(samples[i * c + k])
            }
        }
    }

    mutating func fill(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ colour: (UInt8, UInt8, UInt8)) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 {
                let i = (yy * width + xx) * 3
                rgb[i] = colour.0
                rgb[i + 1] = colour.1
                rgb[i + 2] = colour.2
            }
        }
    }

    mutating func rectangle(_ x: Int, _ y: Int, _ w: Int, _ h: Int, thickness t: Int, colour: (UInt8, UInt8, UInt8)) {
        fill(x, y, w, t, colour)
        fill(x, y + h - t, w, t, colour)
        fill(x, y, t, h, colour)
        fill(x + w - t, y, t, h, colour)
    }

    /// How wide `string` is drawn at `scale`, banner included.
    static func textWidth(_ string: String, scale: Int) -> Int { (string.count * (Font.width + 1) + 2) * scale }

    /// How tall a line of text is drawn at `scale`, banner included.
    static func textHeight(scale: Int) -> Int { (Font.height + 2) * scale }

    /// The canvas as an 8-bit RGB image.
    func image() throws(ImageIOError) -> PixelBuffer {
        try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(rgb))
    }

    /// White letters on a dark banner, `scale` pixels per font dot.
    mutating func text(_ string: String, x: Int, y: Int, scale: Int) {
        let glyphs = string.map(Font.glyph)
        let advance = (Font.width + 1) * scale
        fill(x, y, glyphs.count * advance + 2 * scale, (Font.height + 2) * scale, (0, 0, 0))
        for (n, glyph) in glyphs.enumerated() {
            for row in 0..<Font.height {
                for col in 0..<Font.width where glyph[row * Font.width + col] {
                    fill(x + scale * 2 + n * advance + col * scale, y + scale + row * scale, scale, scale,
                         (255, 255, 255))
                }
            }
        }
    }
}

/// A 5×7 bitmap font: capitals, digits and the punctuation of scene names and scores (lower case is drawn in
/// capitals, anything else as "?").
enum Font {
    static let width = 5, height = 7

    static func glyph(_ c: Character) -> [Bool] {
        let key = Character(c.uppercased())
        let rows = table[key] ?? (c == "—" || c == "–" ? table["-"]! : table["?"]!)
        return rows.map { $0 == "1" }
    }

    static let table: [Character: String] = [
        "A": "01110100011000111111100011000110001", "B": "11110100011000111110100011000111110",
        "C": "01110100011000010000100001000101110", "D": "11110100011000110001100011000111110",
        "E": "11111100001000011110100001000011111", "F": "11111100001000011110100001000010000",
        "G": "01110100011000010111100011000101111", "H": "10001100011000111111100011000110001",
        "I": "01110001000010000100001000010001110", "J": "00111000100001000010000101001001100",
        "K": "10001100101010011000101001001010001", "L": "10000100001000010000100001000011111",
        "M": "10001110111010110101100011000110001", "N": "10001100011100110101100111000110001",
        "O": "01110100011000110001100011000101110", "P": "11110100011000111110100001000010000",
        "Q": "01110100011000110001101011001001101", "R": "11110100011000111110101001001010001",
        "S": "01111100001000001110000010000111110", "T": "11111001000010000100001000010000100",
        "U": "10001100011000110001100011000101110", "V": "10001100011000110001100010101000100",
        "W": "10001100011000110101101011010101010", "X": "10001100010101000100010101000110001",
        "Y": "10001100010101000100001000010000100", "Z": "11111000010001000100010001000011111",
        "0": "01110100011001110101110011000101110", "1": "00100011000010000100001000010001110",
        "2": "01110100010000100010001000100011111", "3": "11111000100010000010000011000101110",
        "4": "00010001100101010010111110001000010", "5": "11111100001111000001000011000101110",
        "6": "00110010001000011110100011000101110", "7": "11111000010001000100010000100001000",
        "8": "01110100011000101110100011000101110", "9": "01110100011000101111000010001001100",
        " ": "00000000000000000000000000000000000", ".": "00000000000000000000000000110001100",
        "-": "00000000000000011111000000000000000", "&": "01100100101010001000101011001001101",
        ":": "00000011000110000000011000110000000", "(": "00010001000100001000010000010000010",
        ")": "01000001000001000010000100010001000", ",": "00000000000000000000011000010001000",
        "/": "00000000010001000100010001000000000", "?": "01110100010000100010001000000000100",
        "%": "11000110010001000100010001001100011", "+": "00000001000010011111001000010000000",
        ">": "10000010000010000010001000100010000", "^": "00100010101000100000000000000000000",
        "=": "00000000001111100000111110000000000",
    ]
}
