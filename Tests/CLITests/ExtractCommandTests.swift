import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

/// `lookstudio extract` end to end: a pair made with `apply`, stored in a temporary catalog with its provenance.
@Suite struct ExtractCommandTests {
    static let before = CLI.packageRoot + "/samples/chelsea.png"
    static let look = CLI.fixtures + "/reference/warm33.cube"

    /// A JSON value by key path from `extract --json`'s object.
    static func object(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    @Test func anAppliedLookIsExtractedStoredWithProvenanceAndReported() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let after = dir + "/after.png", catalog = dir + "/catalog.sqlite"
        #expect(try CLI.run(["apply", "--lut", Self.look, Self.before, after]).status == 0)
        let result = try CLI.run(["extract", Self.before, after, "--name", "Warm Again", "--tag", "test", "--json",
                                  "--catalog", catalog, "--report", dir + "/report"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.object(result.stdout)
        #expect(json["name"] as? String == "Warm Again")
        #expect(json["status"] as? String == "added")
        #expect(json["cube_size"] as? Int == 33)
        // warm33 is smooth: the photo's held-out pixels are reproduced within 8-bit rounding.
        #expect((json["held_out_mean_de00"] as? Double ?? 9) < 0.5)
        #expect((json["coverage"] as? Double ?? 0) > 0.01)
        #expect((json["typical_coverage"] as? Double ?? 0) > (json["coverage"] as? Double ?? 1))
        // Figures a pair does not have are null, not left out (docs/EXTRACT.md lists every key).
        let pair = (json["pairs"] as? [[String: Any]])?.first ?? [:]
        for key in ["vignette_corner_gain", "compression_model", "compressed_in"] {
            #expect(pair[key] is NSNull, "\(key): \(String(describing: pair[key]))")
        }
        #expect((json["tags_added"] as? [String]) == [])
        #expect(FileManager.default.fileExists(atPath: dir + "/report/coverage.png"))
        #expect(FileManager.default.fileExists(atPath: dir + "/report/residuals.png"))
        // The provenance names both files with their SHA-256 (checked against sha256sum) and the settings.
        let guid = json["guid"] as? String ?? ""
        let shown = try CLI.run(["looks", "show", guid, "--catalog", catalog])
        #expect(shown.status == 0)
        let digest = try CLI.run([Self.before], executable: "/usr/bin/sha256sum").stdout.prefix(64)
        #expect(digest.count == 64 && shown.stdout.contains(String(digest)))
        #expect(shown.stdout.contains("size: 33") && shown.stdout.contains("held_out_de00"))
        // The provenance shows as the YAML it is: one line each, indented under its label.
        #expect(shown.stdout.contains("description:\n    extracted_from_pairs:\n      method: "))
        #expect(!shown.stdout.contains("\\u{A}"))
        // The colours the pair shows are stored whole but cut for the terminal.
        #expect(shown.stdout.contains("shown_colours: ") && shown.stdout.contains("more characters; --json has all"))
        let full = try CLI.run(["looks", "show", guid, "--json", "--catalog", catalog])
        #expect(full.stdout.contains("shown_colours: ") && !full.stdout.contains("more characters"))
        // The stored look reproduces the after image through apply.
        let again = dir + "/again.png"
        #expect(try CLI.run(["apply", "--look", guid, "--catalog", catalog, Self.before, again]).status == 0)
        let a = try PNGImage.read(path: after), b = try PNGImage.read(path: again)
        guard case .eight(let sa) = a.samples, case .eight(let sb) = b.samples else {
            Issue.record("expected 8-bit PNGs")
            return
        }
        let mean = zip(sa, sb).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(mean) / Double(sa.count) < 1.0)
    }

    @Test func applyingAnExtractedLookSaysHowMuchOfAPhotoItsPairsDidNotShow() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        // A pair of grey photos shows only the grey axis: a colour photo lies almost wholly outside it.
        let grey = CLI.packageRoot + "/samples/camera.png", greyAfter = dir + "/camera-warm.png"
        #expect(try CLI.run(["apply", "--lut", Self.look, grey, greyAfter]).status == 0)
        let extracted = try CLI.run(["extract", grey, greyAfter, "--name", "Grey Warm", "--catalog", catalog])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let other = try CLI.run(["apply", "--look", "Grey Warm", "--catalog", catalog, Self.before,
                                 dir + "/cat.png"])
        #expect(other.status == 0)
        #expect(other.stderr.contains("pixels have colours the pairs \"Grey Warm\" was extracted from did not show"),
                "\(other.stderr)")
        // On its own photo, and for a look not extracted from photos, nothing is said.
        let own = try CLI.run(["apply", "--look", "Grey Warm", "--catalog", catalog, grey, dir + "/own.png"])
        #expect(own.status == 0 && !own.stderr.contains("did not show"), "\(own.stderr)")
        let shipped = try CLI.run(["apply", "--look", "Warm Film", "--catalog", catalog, Self.before,
                                   dir + "/warm.png"])
        #expect(shipped.status == 0 && !shipped.stderr.contains("did not show"), "\(shipped.stderr)")
        // An input apply cannot read gets apply's one error, whatever the look.
        let missing = try CLI.run(["apply", "--look", "Grey Warm", "--catalog", catalog, dir + "/none.png",
                                   dir + "/x.png"])
        let missingShipped = try CLI.run(["apply", "--look", "Warm Film", "--catalog", catalog, dir + "/none.png",
                                          dir + "/x.png"])
        #expect(missing.status != 0 && missing.stderr == missingShipped.stderr, "\(missing.stderr)")

        // correct measures it for every image (from its analysis copy) and names the images far outside.
        let corrected = try CLI.run(["correct", "--look", "Grey Warm", "--catalog", catalog, "--json", Self.before,
                                     grey, "-o", dir + "/corrected"])
        #expect(corrected.status == 0, "\(corrected.stderr)")
        let images = try JSONSerialization.jsonObject(with: Data(corrected.stdout.utf8)) as? [[String: Any]] ?? []
        let shares: [String: Double] = Dictionary(uniqueKeysWithValues: images.map {
            (URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent, $0["look_unshown"] as? Double ?? -1)
        })
        let cat = shares["chelsea.png"] ?? -1, greyShare = shares["camera.png"] ?? -1
        #expect(cat > 0.8 && greyShare >= 0 && greyShare < 0.05, "\(shares)")
        #expect(corrected.stderr.contains("note: 1 of 2 images have a third or more of their pixels in colours"),
                "\(corrected.stderr)")
        #expect(corrected.stderr.contains("chelsea.png (Grey Warm)") && !corrected.stderr.contains("camera.png (Grey"))
        let shippedLook = try CLI.run(["correct", "--look", "Warm Film", "--catalog", catalog, "--json", Self.before,
                                       "-o", dir + "/warm-corrected.png"])
        let first = (try JSONSerialization.jsonObject(with: Data(shippedLook.stdout.utf8)) as? [[String: Any]])?.first
        #expect(first?.keys.contains("look_unshown") == true && first?["look_unshown"] is NSNull)
        #expect(!shippedLook.stderr.contains("note:"), "\(shippedLook.stderr)")
    }

    @Test func aTaggedJPEGFromApplyIsFittedThroughItsOwnCompression() throws {
        // chelsea.png carries the common "sRGB IEC61966-2.1" profile and apply carries it into the JPEG, as an
        // editor's export would: the after image must still be read as the file's own blocks.
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let after = dir + "/after.jpg", catalog = dir + "/catalog.sqlite"
        #expect(try CLI.run(["apply", "--lut", Self.look, "--quality", "85", Self.before, after]).status == 0)
        #expect(try ImageFormat.readImage(path: after).color.iccProfile != nil)
        let result = try CLI.run(["extract", Self.before, after, "--name", "Warm JPEG", "--json",
                                  "--catalog", catalog])
        #expect(result.status == 0, "\(result.stderr)")
        let pairs = try Self.object(result.stdout)["pairs"] as? [[String: Any]] ?? []
        #expect(pairs.first?["compression_model"] as? String == "jpeg")
        #expect(pairs.first?["compressed_in"] is NSNull || pairs.first?["compressed_in"] == nil)
        // The loss is named, with what to do about it.
        let warnings = try Self.object(result.stdout)["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("a JPEG of quality about 85") && $0.contains("PNG or TIFF") })
        #expect(result.stderr.contains("warning: ") && result.stderr.contains("quality about 85"))
    }

    @Test func aRefitKeepsTheLooksOwnSettingsAndANewLookNeedsAName() throws {
        let refit = try CLI.run(["extract", Self.before, Self.before, "--refit", "Warm", "--size", "17"])
        #expect(refit.status != 0)
        #expect(refit.stderr.contains("--refit keeps the look's name, tags, size"))
        let unnamed = try CLI.run(["extract", Self.before, Self.before])
        #expect(unnamed.status != 0)
        #expect(unnamed.stderr.contains("give the new look a --name (or --refit LOOK"))
    }

    @Test func aFlippedEditAndAnotherPhotoAreRefusedWithTheirMessages() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let after = dir + "/after.png", catalog = dir + "/catalog.sqlite"
        #expect(try CLI.run(["apply", "--lut", Self.look, Self.before, after]).status == 0)
        let image = try PNGImage.read(path: after)
        guard case .eight(let s) = image.samples else {
            Issue.record("expected an 8-bit PNG")
            return
        }
        var flipped = s
        let w = image.width, c = image.channels
        for y in 0..<image.height {
            for x in 0..<w {
                for k in 0..<c { flipped[c * (y * w + x) + k] = s[c * (y * w + w - 1 - x) + k] }
            }
        }
        try ImageFormat.write(try PixelBuffer(width: w, height: image.height, channels: c, samples: .eight(flipped)),
                              to: dir + "/flipped.png")
        let refused = try CLI.run(["extract", Self.before, dir + "/flipped.png", "--name", "F", "--catalog", catalog])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("error: ") && refused.stderr.contains("flipped horizontally"))
        let other = try CLI.run(["extract", Self.before, CLI.packageRoot + "/samples/coffee.png", "--name", "O",
                                 "--catalog", catalog])
        #expect(other.status != 0)
        #expect(other.stderr.contains("does not look like an edit of"))
        // Nothing was stored for either.
        #expect(try CLI.run(["looks", "show", "F", "--catalog", catalog]).status != 0)
        #expect(try CLI.run(["looks", "show", "O", "--catalog", catalog]).status != 0)
    }

    @Test func aRefusedPairNeverCreatesTheCatalog() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        let missing = try CLI.run(["extract", Self.before, dir + "/missing.png", "--name", "M", "--catalog", catalog])
        #expect(missing.status != 0 && missing.stderr.contains("error: "))
        let other = try CLI.run(["extract", Self.before, CLI.packageRoot + "/samples/coffee.png", "--name", "O",
                                 "--catalog", catalog])
        #expect(other.status != 0 && other.stderr.contains("does not look like an edit of"))
        // The pairs were refused before the catalog was opened: no database, journal or lock file exists.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func anImageOverThePixelLimitIsRefusedWithTheOptionThatRaisesIt() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        // chelsea is 451×300 = 135,300 pixels.
        let refused = try CLI.run(["extract", Self.before, Self.before, "--name", "L", "--max-pixels", "100000",
                                   "--catalog", catalog])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("chelsea.png") && refused.stderr.contains("over the limit of 100,000 pixels"))
        #expect(refused.stderr.contains("--max-pixels"))
        let help = try CLI.run(["extract", "--help"])
        #expect(help.stdout.contains("--max-pixels"))
        let allowed = try CLI.run(["extract", Self.before, Self.before, "--name", "L", "--max-pixels", "135300",
                                   "--catalog", catalog, "--size", "9"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test func aWorkingSpaceOutsideTheNamedOnesAndACMYKFileAreRefusedWithWhatToDo() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        let space = try CLI.run(["extract", Self.before, Self.before, "--name", "S", "--working-space", "my.icc",
                                 "--catalog", catalog])
        #expect(space.status == 64)
        #expect(space.stderr.contains("--working-space must be srgb, display-p3, adobe-rgb or rec2020"))
        let cmyk = CLI.fixtures + "/odd/cmyk.jpg"
        let extract = try CLI.run(["extract", Self.before, cmyk, "--name", "C", "--catalog", catalog])
        #expect(extract.status == 1)
        #expect(extract.stderr.contains("cmyk.jpg") && extract.stderr.contains("a CMYK JPEG"))
        #expect(extract.stderr.contains("-colorspace sRGB"))
        let info = try CLI.run(["info", cmyk])
        #expect(info.status == 1 && info.stderr.contains("convert it to RGB first"))
        #expect(!FileManager.default.fileExists(atPath: catalog))
    }

    @Test func anInterruptClearsTheStatusLineBeforeTheProcessEnds() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // chelsea five times as large (2255×1500; about 7 s here), so the fit still runs when the interrupt comes.
        let photo = try PNGImage.read(path: Self.before)
        guard case .eight(let s) = photo.samples else {
            Issue.record("expected an 8-bit PNG")
            return
        }
        let w = photo.width * 5, h = photo.height * 5, c = photo.channels
        var big = [UInt8](repeating: 0, count: w * h * c)
        for y in 0..<h {
            for x in 0..<w {
                for k in 0..<c { big[c * (y * w + x) + k] = s[c * ((y / 5) * photo.width + x / 5) + k] }
            }
        }
        try ImageFormat.write(try PixelBuffer(width: w, height: h, channels: c, samples: .eight(big)),
                              to: dir + "/big.png")
        // `script` gives the command a terminal, so the status line is drawn; `timeout` interrupts it mid-fit.
        let command = "timeout -s INT 2 \(CLI.binary) extract \(dir)/big.png \(dir)/big.png --name T "
            + "--catalog \(dir)/catalog.sqlite"
        let run = try CLI.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
        #expect(run.status == 124, "interrupted by timeout: \(run.stdout)")
        let lastDraw = run.stdout.range(of: "s)", options: .backwards)
        #expect(lastDraw != nil, "a status line was drawn: \(run.stdout)")
        if let lastDraw {
            let after = String(run.stdout[lastDraw.upperBound...])
            #expect(after.hasPrefix("\r\u{1B}[K"), "the line was cleared after its last draw: \(after.debugDescription)")
        }
    }
}
