/// Read access to a cube's `3·N³` values by flat index, red fastest: a cube's own storage, or values computed per
/// lattice point, so a writer can stream a lattice that is never held whole.
public protocol LatticeValues {
    /// Value `i` (channel `i % 3` of entry `i / 3`).
    subscript(_ i: Int) -> Float { get }
}

extension UnsafeBufferPointer: LatticeValues where Element == Float {}

/// The identity's values computed per lattice point: exactly what `ColorCube.identity(size:)` holds, or with
/// `quantizedTo16Bit` what its `quantizedTo16Bit()` holds.
public struct IdentityValues: LatticeValues, Sendable, Equatable {
    /// Entries per axis (N).
    public let size: Int
    /// Whether each value is rounded to v/65535, as composed cubes are.
    public let quantizedTo16Bit: Bool

    /// The identity of `size`, at the catalog's precision when `quantizedTo16Bit`.
    public init(size: Int, quantizedTo16Bit: Bool) {
        self.size = size
        self.quantizedTo16Bit = quantizedTo16Bit
    }

    @inline(__always)
    public subscript(_ i: Int) -> Float {
        let entry = i / 3
        let coordinate: Int
        switch i - 3 * entry {
        case 0: coordinate = entry % size
        case 1: coordinate = (entry / size) % size
        default: coordinate = entry / (size * size)
        }
        // The same divisions and rounding `ColorCube.identity` and `quantizedTo16Bit` make, so the files match.
        let v = Float(coordinate) / Float(size - 1)
        return quantizedTo16Bit ? Float((v * 65535).rounded()) / 65535 : v
    }
}

/// A cube to write: its entries held, or an identity of some size whose values are produced as a writer reads
/// them, so an empty recipe of size 256 needs no 201 MB of Floats.
public enum CubeLattice: Sendable, Equatable {
    /// A cube's own entries.
    case cube(ColorCube)
    /// The identity, computed per lattice point.
    case identity(IdentityValues)

    /// Entries per axis (N).
    public var size: Int {
        switch self {
        case .cube(let cube): return cube.size
        case .identity(let values): return values.size
        }
    }

    /// The lattice at the catalog's precision (see `ColorCube.quantizedTo16Bit`).
    public consuming func quantizedTo16Bit() throws(LookCoreError) -> CubeLattice {
        switch consume self {
        case .cube(let cube): return .cube(try cube.quantizedTo16Bit())
        case .identity(let values): return .identity(IdentityValues(size: values.size, quantizedTo16Bit: true))
        }
    }

    /// The lattice as a cube, its values computed and held (for a writer or store that needs them all).
    public func materialized() throws(LookCoreError) -> ColorCube {
        switch self {
        case .cube(let cube): return cube
        case .identity(let values):
            return try ColorCube(size: values.size, values: (0..<(3 * values.entryCount)).map { values[$0] })
        }
    }
}

extension IdentityValues {
    /// Number of lattice points, N³.
    public var entryCount: Int { size * size * size }
}
