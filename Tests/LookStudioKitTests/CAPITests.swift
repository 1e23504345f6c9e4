// The declarations of lookstudio.h, resolved at link time to CLookStudio's exports, as in a C program.
import CLookStudioHeader
import Foundation
import ImageIO
import LookStudioTestSupport
import Testing

/// The C API as a C program calls it (lookstudio.h): the command line's bytes through it, and bad input of every
/// kind answered with a status and a message, never a crash.
@Suite struct CAPITests {
    /// A C call's status and its error's status and message; the error is freed here.
    private struct Outcome {
        var status: Int
        var errorStatus: Int
        var message: String
        var ok: Bool { status == LOOKSTUDIO_OK }
    }

    private static func outcome(_ call: (UnsafeMutablePointer<OpaquePointer?>) -> lookstudio_status) -> Outcome {
        var error: OpaquePointer?
        let status = call(&error)
        defer { lookstudio_error_free(error) }
        return Outcome(status: Int(status), errorStatus: error == nil ? LOOKSTUDIO_OK : Int(lookstudio_error_status(error)),
                       message: String(cString: lookstudio_error_message(error)))
    }

    /// Expects `call` to fail with `status` (also the error's) and a message containing `needle`.
    private static func expectFailure(_ what: String, _ status: Int, _ needle: String,
                                      sourceLocation: SourceLocation = #_sourceLocation,
                                      _ call: (UnsafeMutablePointer<OpaquePointer?>) -> lookstudio_status) {
        let result = outcome(call)
        #expect(result.status == status && result.errorStatus == status, "\(what): \(result.message)",
                sourceLocation: sourceLocation)
        #expect(result.message.contains(needle), "\(what): \(result.message)", sourceLocation: sourceLocation)
    }

    /// An engine on the suite's catalog; the caller closes it.
    private static func openEngine(_ catalog: String) throws -> OpaquePointer {
        var options = lookstudio_engine_options()
        lookstudio_engine_options_init(&options)
        var engine: OpaquePointer?
        let result = catalog.withCString { path in
            options.catalog_path = path
            return outcome { lookstudio_engine_open(&options, &engine, $0) }
        }
        guard result.ok, let engine else { throw CAPIError(message: result.message) }
        return engine
    }

    /// An image over `pixels` (8-bit RGB unless told), `stride` bytes per row (a packed row when nil).
    private static func describe(_ pixels: UnsafeMutableRawPointer?, width: Int64, height: Int64, channels: Int32 = 3,
                                 bits: Int32 = 8, stride: Int64? = nil) -> lookstudio_image_desc {
        var desc = lookstudio_image_desc()
        lookstudio_image_desc_init(&desc)
        desc.channels = channels
        desc.bits = bits
        desc.width = width
        desc.height = height
        desc.stride = stride ?? width * Int64(channels * bits / 8)
        desc.pixels = pixels
        return desc
    }

    private static func makeImage(_ desc: lookstudio_image_desc) throws -> OpaquePointer {
        var desc = desc
        var image: OpaquePointer?
        let result = outcome { lookstudio_image_create(&desc, &image, $0) }
        guard result.ok, let image else { throw CAPIError(message: result.message) }
        return image
    }

    private struct CAPIError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A photo's decoded 8-bit samples and its ICC profile, as an app's decoder gives them.
    private static func photo(_ name: String) throws -> (samples: [UInt8], width: Int, height: Int, icc: [UInt8]?) {
        let (pixels, color) = try Fixture.photo(name)
        guard case .eight(let samples) = pixels.samples, pixels.channels == 3 else {
            throw CAPIError(message: "\(name) is not 8-bit RGB")
        }
        return (samples, pixels.width, pixels.height, color.iccProfile.map { Array($0.data) })
    }

    /// Renders `photo` through the C API: `analyse` detects it once and renders every parameter set with that
    /// analysis (`lookstudio_apply_many`), else each set is rendered alone (`lookstudio_apply`).
    private static func render(_ name: String, _ params: [lookstudio_params], analyse: Bool) throws -> [[UInt8]] {
        let engine = try openEngine(try Fixture.catalog.get())
        defer { lookstudio_engine_close(engine) }
        let decoded = try photo(name)
        var samples = decoded.samples
        let (width, height, icc) = (decoded.width, decoded.height, decoded.icc)
        var outputs = Array(repeating: [UInt8](repeating: 0, count: samples.count), count: params.count)
        try samples.withUnsafeMutableBytes { input in
            var desc = describe(input.baseAddress, width: Int64(width), height: Int64(height))
            let image = try (icc ?? []).withUnsafeBufferPointer { profile in
                desc.icc = icc == nil ? nil : profile.baseAddress
                desc.icc_size = icc?.count ?? 0
                return try makeImage(desc)
            }
            defer { lookstudio_image_free(image) }
            var analysis: OpaquePointer?
            defer { lookstudio_analysis_free(analysis) }
            if analyse {
                let detected = outcome { lookstudio_detect(engine, image, &analysis, $0) }
                guard detected.ok else { throw CAPIError(message: detected.message) }
            }
            for (i, set) in params.enumerated() {
                try outputs[i].withUnsafeMutableBytes { out in
                    let target = try makeImage(describe(out.baseAddress, width: Int64(width), height: Int64(height)))
                    defer { lookstudio_image_free(target) }
                    var set = set
                    let applied = analyse
                        ? outcome { error in
                            var targets: [OpaquePointer?] = [target]
                            return lookstudio_apply_many(engine, image, analysis, &set, &targets, 1, error)
                        }
                        : outcome { lookstudio_apply(engine, image, nil, &set, target, $0) }
                    guard applied.ok else { throw CAPIError(message: applied.message) }
                }
            }
        }
        return outputs
    }

    private static func defaultParams() -> lookstudio_params {
        var params = lookstudio_params()
        lookstudio_params_init(&params)
        return params
    }

    @Test(.enabled(if: CLI.available))
    func aLookByGUIDIsTheBytesOfApplyLook() throws {
        let catalog = try Fixture.catalog.get()
        let look = try Fixture.lookGUIDs(3)[2]
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(["--catalog", catalog, "apply", "--look", look, "--strength", "60",
                               "\(CLI.packageRoot)/samples/coffee.png", "\(dir)/out.png"])
        #expect(run.status == 0, "\(run.stderr)")
        let cli = try ImageFormat.read(path: "\(dir)/out.png").pixels
        var params = Self.defaultParams()
        params.look_strength = 60
        let out = try look.withCString { guid in
            params.look = guid
            return try Self.render("coffee.png", [params], analyse: false)
        }
        #expect(.eight(out[0]) == cli.samples)
    }

    @Test(.enabled(if: CLI.available))
    func correctAfterOneDetectIsTheBytesOfCorrectAtEachStrength() throws {
        let cli = try Fixture.commandLineCorrect("astronaut.png")
        let strengths = [40.0, 70, 100]
        let params = strengths.map { strength in
            var params = Self.defaultParams()
            params.strength = strength
            return params
        }
        let out = try Self.render("astronaut.png", params, analyse: true)
        for (strength, bytes) in zip(strengths, out) {
            #expect(.eight(bytes) == cli[strength]?.samples, "strength \(strength)")
        }
    }

    @Test func badImageDescriptionsAreRefusedNamingTheField() {
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: 4096)
        defer { pixels.deallocate() }
        let packed = Self.describe(pixels, width: 4, height: 4)
        var cases: [(String, lookstudio_image_desc, String)] = []
        cases.append(("width 0", Self.describe(pixels, width: 0, height: 4), "width 0"))
        cases.append(("height -2", Self.describe(pixels, width: 4, height: -2), "height -2"))
        cases.append(("stride under a row", Self.describe(pixels, width: 8, height: 4, stride: 23), "stride 23"))
        cases.append(("negative stride", Self.describe(pixels, width: 4, height: 4, stride: -12), "stride -12"))
        cases.append(("pixels NULL", Self.describe(nil, width: 4, height: 4), "NULL"))
        cases.append(("2 channels", Self.describe(pixels, width: 4, height: 4, channels: 2), "channels"))
        cases.append(("12 bits", Self.describe(pixels, width: 4, height: 4, bits: 12), "12 bits"))
        cases.append(("past the address space",
                      Self.describe(pixels, width: Int64.max / 2, height: 4, stride: Int64.max), "fit"))
        var short = packed
        short.struct_size = 8
        cases.append(("struct_size 8", short, "struct_size"))
        var noProfile = packed
        noProfile.icc_size = 10
        cases.append(("icc NULL with a size", noProfile, "icc"))
        var damaged = packed
        damaged.icc = UnsafePointer(pixels.assumingMemoryBound(to: UInt8.self))
        damaged.icc_size = 300
        cases.append(("damaged ICC profile", damaged, "ICC"))
        for (what, desc, needle) in cases {
            var desc = desc
            var image: OpaquePointer?
            Self.expectFailure(what, LOOKSTUDIO_INVALID_ARGUMENT, needle) { lookstudio_image_create(&desc, &image, $0) }
            #expect(image == nil, "\(what) made an image")
        }
        Self.expectFailure("desc NULL", LOOKSTUDIO_INVALID_ARGUMENT, "NULL") {
            var image: OpaquePointer?
            return lookstudio_image_create(nil, &image, $0)
        }
        var desc = packed
        Self.expectFailure("out pointer NULL", LOOKSTUDIO_INVALID_ARGUMENT, "NULL") {
            lookstudio_image_create(&desc, nil, $0)
        }
    }

    @Test func badCallsAreErrorsWithMessagesAndNeverTouchTheOutput() throws {
        let engine = try Self.openEngine(try Fixture.catalog.get())
        defer { lookstudio_engine_close(engine) }
        var pixels = [UInt8](repeating: 0x5A, count: 4 * 4 * 3), wide = [UInt8](repeating: 0, count: 8 * 4 * 3)
        try pixels.withUnsafeMutableBytes { raw in
            try wide.withUnsafeMutableBytes { wideRaw in
                let input = try Self.makeImage(Self.describe(raw.baseAddress, width: 4, height: 4))
                let other = try Self.makeImage(Self.describe(wideRaw.baseAddress, width: 8, height: 4))
                defer {
                    lookstudio_image_free(input)
                    lookstudio_image_free(other)
                }
                var p = Self.defaultParams()
                let apply = { (params: lookstudio_params, reference: String?, error: UnsafeMutablePointer<OpaquePointer?>)
                    -> lookstudio_status in
                    var params = params
                    guard let reference else { return lookstudio_apply(engine, input, nil, &params, input, error) }
                    return reference.withCString { look in
                        params.look = look
                        return lookstudio_apply(engine, input, nil, &params, input, error)
                    }
                }
                Self.expectFailure("unknown GUID", LOOKSTUDIO_NOT_FOUND, "00000000-0000-4000-8000-000000000000") {
                    apply(p, "00000000-0000-4000-8000-000000000000", $0)
                }
                Self.expectFailure("misspelt name", LOOKSTUDIO_NOT_FOUND, "Cyanotype") { apply(p, "Cyanotpye", $0) }
                p.look_strength = 250
                Self.expectFailure("look strength 250", LOOKSTUDIO_INVALID_ARGUMENT, "250") {
                    apply(p, "Cyanotype", $0)
                }
                p = Self.defaultParams()
                p.output_space = 9
                Self.expectFailure("output space 9", LOOKSTUDIO_INVALID_ARGUMENT, "output_space") {
                    apply(p, "Cyanotype", $0)
                }
                p = Self.defaultParams()
                p.auto_correct = Int32(LOOKSTUDIO_AUTO_ON)
                Self.expectFailure("auto on without an analysis", LOOKSTUDIO_INVALID_ARGUMENT, "analysis") {
                    apply(p, nil, $0)
                }
                p = Self.defaultParams()
                p.struct_size = 16
                Self.expectFailure("params struct_size 16", LOOKSTUDIO_INVALID_ARGUMENT, "struct_size") {
                    apply(p, "Cyanotype", $0)
                }
                p = Self.defaultParams()
                Self.expectFailure("output of another size", LOOKSTUDIO_INVALID_ARGUMENT, "must match") {
                    lookstudio_apply(engine, input, nil, &p, other, $0)
                }
                Self.expectFailure("engine NULL", LOOKSTUDIO_INVALID_ARGUMENT, "engine") {
                    lookstudio_apply(nil, input, nil, &p, input, $0)
                }
                Self.expectFailure("input NULL", LOOKSTUDIO_INVALID_ARGUMENT, "input") {
                    lookstudio_apply(engine, nil, nil, &p, input, $0)
                }
                Self.expectFailure("params NULL", LOOKSTUDIO_INVALID_ARGUMENT, "lookstudio_params") {
                    lookstudio_apply(engine, input, nil, nil, input, $0)
                }
                Self.expectFailure("an image as the engine", LOOKSTUDIO_INVALID_ARGUMENT, "not a live lookstudio_engine") {
                    lookstudio_apply(input, input, nil, &p, input, $0)
                }
                Self.expectFailure("apply_many outputs NULL", LOOKSTUDIO_INVALID_ARGUMENT, "outputs") {
                    lookstudio_apply_many(engine, input, nil, &p, nil, 2, $0)
                }
                var cube = [Float](repeating: 0, count: 24)
                Self.expectFailure("cube count wrong", LOOKSTUDIO_INVALID_ARGUMENT, "81") {
                    lookstudio_cube(engine, nil, nil, &p, 3, &cube, 24, $0)
                }
                Self.expectFailure("cube size 1", LOOKSTUDIO_INVALID_ARGUMENT, "size 1") {
                    lookstudio_cube(engine, nil, nil, &p, 1, &cube, 3, $0)
                }
                #expect(Int(lookstudio_apply(engine, nil, nil, &p, input, nil)) == LOOKSTUDIO_INVALID_ARGUMENT,
                        "without an error pointer the status alone reports the failure")
            }
        }
        #expect(pixels.allSatisfy { $0 == 0x5A }, "a refused apply wrote to its output")
    }

    @Test func looksAndCatalogsRefuseWhatTheyCannotFind() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let damaged = "\(dir)/damaged.sqlite"
        #expect(FileManager.default.createFile(atPath: damaged,
                                               contents: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })))
        var options = lookstudio_engine_options()
        lookstudio_engine_options_init(&options)
        var engine: OpaquePointer?
        damaged.withCString { path in
            options.catalog_path = path
            Self.expectFailure("damaged catalog", LOOKSTUDIO_CATALOG_BROKEN, "damaged.sqlite") {
                lookstudio_engine_open(&options, &engine, $0)
            }
        }
        "/dev/null/not-a-folder/catalog.sqlite".withCString { path in
            options.catalog_path = path
            Self.expectFailure("catalog under a file", LOOKSTUDIO_INVALID_ARGUMENT, "not-a-folder") {
                lookstudio_engine_open(&options, &engine, $0)
            }
        }
        #expect(engine == nil)
        let opened = try Self.openEngine(try Fixture.catalog.get())
        defer { lookstudio_engine_close(opened) }
        var looks: OpaquePointer?
        Self.expectFailure("look reference NULL", LOOKSTUDIO_INVALID_ARGUMENT, "reference") {
            lookstudio_look_find(opened, nil, &looks, $0)
        }
        Self.expectFailure("unknown look", LOOKSTUDIO_NOT_FOUND, "FFFFFFFF") {
            lookstudio_look_find(opened, "FFFFFFFF-0000-4000-8000-000000000000", &looks, $0)
        }
        #expect(Self.outcome { lookstudio_looks_list(opened, nil, &looks, $0) }.ok)
        defer { lookstudio_looks_free(looks) }
        #expect(lookstudio_looks_count(looks) == (try Fixture.engine.get().looks().count))
        var info = lookstudio_look_info()
        info.struct_size = UInt32(MemoryLayout<lookstudio_look_info>.size)
        Self.expectFailure("look index past the end", LOOKSTUDIO_INVALID_ARGUMENT, "100000") {
            lookstudio_looks_get(looks, 100_000, &info, $0)
        }
        var analysis: OpaquePointer?
        Self.expectFailure("detect a missing file", LOOKSTUDIO_INVALID_ARGUMENT, "/nonexistent/photo.png") {
            lookstudio_detect_file(opened, "/nonexistent/photo.png", &analysis, $0)
        }
        #expect(analysis == nil)
    }

    @Test func freeFunctionsAndErrorAccessorsTakeNULL() {
        lookstudio_engine_close(nil)
        lookstudio_image_free(nil)
        lookstudio_analysis_free(nil)
        lookstudio_looks_free(nil)
        lookstudio_error_free(nil)
        #expect(String(cString: lookstudio_error_message(nil)).isEmpty)
        #expect(Int(lookstudio_error_status(nil)) == LOOKSTUDIO_INVALID_ARGUMENT)
        #expect(lookstudio_abi_version() == UInt32(LOOKSTUDIO_ABI_VERSION))
    }
}
