// libFuzzer harness "icc": an embedded ICC profile as `correct` meets it in a stranger's photo: ColorProfile (LittleCMS
// opens it, checks its class and colour space, reads its description), then transforms to and from sRGB and to Lab.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import ColorManagement

private let sRGB = ColorProfile(.sRGB)
/// Black, white, the primaries, a mid grey and out-of-range values: what a cube's grid sends through a transform.
private let probe: [Float] = [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5, -0.25, 1.5, 0.18]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let profile = try? ColorProfile(iccData: bytes, source: "fuzz.icc") else { return 0 }
    // Into the profile (the output side, perceptual intent) and out to Lab: opening the profile already built a
    // transform to sRGB. Each transform rebuilds sRGB's curves inside LittleCMS (most of an execution in
    // perf), so the harness makes no more of them than these paths need.
    if let backward = try? ColorTransform(from: sRGB, to: profile, intent: .perceptual) {
        _ = backward.converting(probe)
    }
    if let lab = try? LabConverter(from: profile) { _ = probe.withUnsafeBufferPointer { lab.lab($0) } }
    return 0
}
