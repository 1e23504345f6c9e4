import ColorManagement
import LookCore
import LookFormats

/// A look on its way out: the cube as authored, the strength the user asked for and the space it was authored in.
public struct ExportLook: Sendable {
    /// The look's name, written where a format has a title or name field.
    public var name: String
    /// The cube at full strength, in the working space's encoded values.
    public var cube: ColorCube
    /// Strength as a factor, 0…2 (1 = the look as authored).
    public var strength: Float
    /// The space the cube's values are encoded in.
    public var workingSpace: ColorProfile
    /// The look as one ASC CDL correction, set by a caller that knows the look is exactly one (its recipe a single
    /// `grade.cdl` step at strength 100); the `cdl` target writes it and refuses a look without one.
    public var cdl: CDLCorrection?

    /// A look to export; `strength` is a factor 0…2.
    public init(name: String, cube: ColorCube, strength: Float = 1, workingSpace: ColorProfile = ColorProfile(.sRGB))
        throws(ExportError) {
        guard strength.isFinite, (0...2).contains(strength) else {
            throw ExportError(target: name, "strength \(strength * 100) % is outside 0…200 %")
        }
        self.name = name
        self.cube = cube
        self.strength = strength
        self.workingSpace = workingSpace
    }

    /// True when the working space is sRGB, the space every format without a colour-space field assumes.
    public var isSRGB: Bool { workingSpace.isEquivalent(to: ColorProfile(.sRGB)) }

    /// The table a format stores, at `size` points.
    ///
    /// `keepStrength`: the format carries strength itself, so the cube is written at full strength.
    /// `keepSpace`: the format names the working space, so values stay in it; otherwise sRGB → working space →
    /// look → sRGB is composed into the table. `keepRange`: the format stores floats its consumers read beyond
    /// 0…1, so an HDR look's values are written as they are; otherwise they are clamped to 0…1. Each thing baked
    /// or clamped adds a warning naming `target`.
    public func table(size: Int, target: String, keepStrength: Bool = false, keepSpace: Bool = false,
                      keepRange: Bool = false) throws -> (cube: ColorCube, warnings: [String]) {
        var warnings: [String] = []
        var cube = keepStrength ? self.cube : try self.cube.scaled(strength: strength)
        if !keepStrength && strength != 1 {
            let percent = Int((strength * 100).rounded())
            warnings.append("\(target) has no strength control: strength \(percent) % is baked into the table")
        }
        if !keepSpace && !isSRGB {
            let managed = ColorManagedLook(look: cube, workingSpace: workingSpace)
            cube = try managed.cube(input: ColorProfile(.sRGB), output: ColorProfile(.sRGB),
                                    gridSize: Swift.max(size, ColorManagedLook.defaultGridSize))
            warnings.append("\(target) cannot name a colour space: the look's working space "
                            + "\"\(workingSpace.description)\" "
                            + "is baked in, so the table maps sRGB to sRGB")
        }
        cube = try cube.resampled(to: size)
        if keepRange { return (cube, warnings) }
        let (clamped, count) = cube.clampedToUnitRange()
        if count > 0 { warnings.append("\(target): \(count) values outside 0…1 were clamped") }
        return (clamped, warnings)
    }
}
