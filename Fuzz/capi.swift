// libFuzzer harness "capi": image descriptions and parameter sets through the C API as an embedding app might get
// them wrong — any width, height, stride, channel count, bit depth and ICC profile bytes, any strengths, enumerations
// and look references — then, for a description the library accepts, detect, apply and the cube on pixels of
// exactly the size it describes. Every call must return a status; none may crash or read past the pixels.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import CLookStudioHeader
import Foundation

/// Reads the input front to back; past the end, zeros.
private struct Reader {
    var bytes: ArraySlice<UInt8>
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    mutating func int64() -> Int64 {
        var value: Int64 = 0
        for _ in 0..<8 { value = value << 8 | Int64(byte()) }
        return value
    }
    mutating func double() -> Double {
        // Mostly small numbers near the valid ranges, sometimes any bit pattern (NaN, infinities, huge values).
        let kind = byte()
        return kind < 200 ? Double(Int(kind) - 100) * 2.5 : Double(bitPattern: UInt64(bitPattern: int64()))
    }
}

/// One engine for the process, on a catalog made in /dev/shm from the repository's seed.
private let engine: OpaquePointer? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    setenv("LOOKSTUDIO_SEED_DIR", root, 1)
    var options = lookstudio_engine_options()
    lookstudio_engine_options_init(&options)
    var engine: OpaquePointer?
    let catalog = "/dev/shm/lookstudio-fuzz-capi-\(getpid()).sqlite"
    catalog.withCString { options.catalog_path = $0; _ = lookstudio_engine_open(&options, &engine, nil) }
    return engine
}()

/// The shipped looks' GUIDs, and names no catalog has.
private let references = ["887A3B95-9F89-4605-A509-254B653619FB", "Cyanotype", "887A", "", "no such look", "@2"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Reader(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    var desc = lookstudio_image_desc()
    lookstudio_image_desc_init(&desc)
    desc.channels = Int32(input.byte() % 6)
    desc.bits = [8, 16, 0, 12, 32][Int(input.byte() % 5)]
    // Small sizes most of the time, so accepted descriptions get rendered; any value otherwise.
    let small = input.byte() < 230
    desc.width = small ? Int64(input.byte() % 40) - 2 : input.int64()
    desc.height = small ? Int64(input.byte() % 40) - 2 : input.int64()
    let padding = Int64(input.byte()) - 16
    desc.stride = small ? desc.width * Int64(max(desc.channels, 0)) * Int64(max(desc.bits, 0) / 8) + padding
                        : input.int64()
    var params = lookstudio_params()
    lookstudio_params_init(&params)
    params.look_strength = input.double()
    params.strength = input.double()
    params.look_contrast = input.double()
    params.exposure = input.double()
    params.auto_correct = Int32(input.byte() % 5) - 2
    params.output_space = Int32(input.byte() % 7) - 1
    params.intent = Int32(input.byte() % 3)
    params.no_look = Int32(input.byte() % 3)
    let reference = references[Int(input.byte()) % references.count]
    let cubeSize = Int32(input.byte() % 12)
    let icc = Array(input.bytes)
    reference.withCString { params.look = $0; render(desc, icc: icc, params: params, cubeSize: cubeSize) }
    return 0
}

/// Creates the image over pixels of exactly the described size when that size is small; a description the
/// library accepts is then detected, applied and asked for its cube.
private func render(_ description: lookstudio_image_desc, icc: [UInt8], params: lookstudio_params, cubeSize: Int32) {
    var desc = description
    let (rows, o1) = desc.stride.multipliedReportingOverflow(by: max(0, desc.height - 1))
    let (row, o2) = desc.width.multipliedReportingOverflow(by: Int64(max(desc.channels, 0)) * 2)
    let (sum, o3) = rows.addingReportingOverflow(row)
    let extent = o1 || o2 || o3 || desc.stride < 0 || desc.width < 0 ? Int64.max : sum
    // Pixels of the described extent (16-bit aligned), or a token buffer for descriptions too large to back:
    // those may only be validated, never rendered.
    let backed = extent <= 1 << 16
    let pixels = UnsafeMutableRawPointer.allocate(byteCount: backed ? Int(max(extent, 1)) : 1, alignment: 16)
    defer { pixels.deallocate() }
    let output = UnsafeMutableRawPointer.allocate(byteCount: backed ? Int(max(extent, 1)) : 1, alignment: 16)
    defer { output.deallocate() }
    pixels.initializeMemory(as: UInt8.self, repeating: 0x5A, count: backed ? Int(max(extent, 1)) : 1)
    desc.pixels = pixels
    icc.withUnsafeBufferPointer { bytes in
        desc.icc = bytes.baseAddress
        desc.icc_size = bytes.count
        var image: OpaquePointer?
        guard lookstudio_image_create(&desc, &image, nil) == LOOKSTUDIO_OK else { return }
        defer { lookstudio_image_free(image) }
        // A valid description of more memory than the harness gave: applying it would read past the buffer.
        guard backed else { return }
        var out = desc
        out.pixels = output
        out.icc = nil
        out.icc_size = 0
        var target: OpaquePointer?
        guard lookstudio_image_create(&out, &target, nil) == LOOKSTUDIO_OK else { return }
        defer { lookstudio_image_free(target) }
        var analysis: OpaquePointer?
        var p = params
        _ = lookstudio_detect(engine, image, &analysis, nil)
        defer { lookstudio_analysis_free(analysis) }
        var error: OpaquePointer?
        if lookstudio_apply(engine, image, analysis, &p, target, &error) != LOOKSTUDIO_OK {
            precondition(lookstudio_error_message(error).pointee != 0, "a failed apply without a message")
        }
        lookstudio_error_free(error)
        let count = Int(cubeSize) * Int(cubeSize) * Int(cubeSize) * 3
        var cube = [Float](repeating: 0, count: max(count, 1))
        _ = lookstudio_cube(engine, image, analysis, &p, cubeSize, &cube, count, nil)
    }
}
