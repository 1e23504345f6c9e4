import LookCore

/// A look together with the space it was authored in, and the one function that matters: compose input space →
/// working space → look → output space into ONE cube, so applying stays one lookup per pixel.
///
/// Out-of-gamut colours are clipped to 0…1 after each conversion (relative colorimetric with clipping by default;
/// `RenderingIntent.perceptual` where a profile has a perceptual table). When input and working space are the same
/// (`ColorProfile.isEquivalent`) the look's own grid is kept and read exactly; when all three spaces are the same the
/// look is returned untouched, so untagged and sRGB images through an sRGB look give the old result bit for bit.
public struct ColorManagedLook: Sendable {
    /// Grid of the composed cube when the input needs converting (the look's own grid when that is finer).
    /// Chosen from measurement: 33 keeps the grid's error an order of magnitude under 8-bit requantisation and the
    /// applier's tables in cache (docs/design/performance.md).
    public static let defaultGridSize = 33

    /// The look, in its working space's encoded values.
    public let look: ColorCube
    /// The space the look was authored in.
    public let workingSpace: ColorProfile
    /// How the look is interpolated.
    public let interpolation: Interpolation

    /// Pairs a look with its working space.
    public init(look: ColorCube, workingSpace: ColorProfile, interpolation: Interpolation = .tetrahedral) {
        self.look = look
        self.workingSpace = workingSpace
        self.interpolation = interpolation
    }

    /// The cube to apply to pixels encoded in `input`, giving pixels encoded in `output`; sampled at `gridSize`
    /// points per axis or the look's own, whichever is finer, when the input is converted.
    public func cube(input: ColorProfile, output: ColorProfile, intent: RenderingIntent = .relativeColorimetric,
                     gridSize: Int = ColorManagedLook.defaultGridSize) throws -> ColorCube {
        guard ColorCube.sizeRange.contains(gridSize) else { throw ColorManagementError.invalidGridSize(gridSize) }
        // The identity look (strength 0) must leave colours alone even outside the working space's gamut, so it
        // skips the working space: input → output directly, or nothing at all when they are the same.
        let grid = Swift.max(gridSize, look.size)
        if look == (try? ColorCube.identity(size: look.size)) {
            if input.isEquivalent(to: output) { return look }
            var values = try ColorCube.identity(size: grid).values
            try ColorTransform(from: input, to: output, intent: intent).convert(buffer: &values)
            ColorManagedLook.clip(&values)
            return try ColorCube(size: grid, values: values)
        }
        let convertIn = !input.isEquivalent(to: workingSpace)
        let convertOut = !output.isEquivalent(to: workingSpace)
        if !convertIn && !convertOut { return look }
        var values: [Float]
        if convertIn {
            values = try ColorCube.identity(size: grid).values
            try ColorTransform(from: input, to: workingSpace, intent: intent).convert(buffer: &values)
            ColorManagedLook.clip(&values)
            let sampler = BatchSampler(look, interpolation: interpolation)
            values.withUnsafeMutableBufferPointer { sampler.apply(inPlace: $0) }
        } else {
            values = look.values
        }
        if convertOut {
            ColorManagedLook.clip(&values)
            try ColorTransform(from: workingSpace, to: output, intent: intent).convert(buffer: &values)
            ColorManagedLook.clip(&values)
        }
        return try ColorCube(size: convertIn ? grid : look.size, values: values)
    }

    /// The reference the composed cube approximates: every pixel converted in Float (RGB triples, 0…1, in place).
    public func applyPerPixel(_ rgb: inout [Float], input: ColorProfile, output: ColorProfile,
                              intent: RenderingIntent = .relativeColorimetric) throws {
        if !input.isEquivalent(to: workingSpace) {
            try ColorTransform(from: input, to: workingSpace, intent: intent).convert(buffer: &rgb)
        }
        ColorManagedLook.clip(&rgb)
        let sampler = BatchSampler(look, interpolation: interpolation)
        rgb.withUnsafeMutableBufferPointer { sampler.apply(inPlace: $0) }
        if !output.isEquivalent(to: workingSpace) {
            ColorManagedLook.clip(&rgb)
            try ColorTransform(from: workingSpace, to: output, intent: intent).convert(buffer: &rgb)
            ColorManagedLook.clip(&rgb)
        }
    }

    static func clip(_ values: inout [Float]) {
        for i in values.indices { values[i] = Swift.min(Swift.max(values[i], 0), 1) }
    }
}

extension ColorTransform {
    /// Converts an array of RGB triples in place.
    func convert(buffer: inout [Float]) {
        buffer.withUnsafeMutableBufferPointer { convert($0) }
    }
}
