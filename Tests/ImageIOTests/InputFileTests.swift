import Foundation
import ImageIO
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Readers ask `InputFile` before opening: folders, FIFOs, sockets and devices are refused by name, links followed.
@Suite struct InputFileTests {
    @Test("kinds: regular file, link to it, folder, FIFO, character device, missing path")
    func kinds() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        try Data([1]).write(to: URL(fileURLWithPath: folder.file("a.png")))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.png"),
                                                   withDestinationPath: folder.file("a.png"))
        #expect(mkfifo(folder.file("pipe.png"), 0o600) == 0)
        #expect(InputFile.kind(of: folder.file("a.png")) == .regular)
        #expect(InputFile.kind(of: folder.file("link.png")) == .regular)
        #expect(InputFile.kind(of: folder.path) == .directory)
        #expect(InputFile.kind(of: folder.file("pipe.png")) == .fifo)
        #expect(InputFile.kind(of: "/dev/null") == .characterDevice)
        #expect(InputFile.kind(of: folder.file("none.png")) == .unknown(errno: ENOENT))
        #expect(InputFile.refusal(folder.file("a.png"), what: "an image file") == nil)
        #expect(InputFile.refusal(folder.file("none.png"), what: "an image file") == nil)
        #expect(InputFile.refusal(folder.path, what: "a LUT file") == "is a folder, not a LUT file")
    }

    @Test("every image reader refuses a FIFO at once (opening it would wait for a writer) and names the path")
    func readersRefuseFIFO() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let pipe = folder.file("b.png")
        #expect(mkfifo(pipe, 0o600) == 0)
        let expected = "\(pipe): is a FIFO (named pipe), not an image file"
        #expect(throws: ImageIOError.unsupportedImage(file: pipe,
                                                      detail: "is a FIFO (named pipe), not an image file")) {
            try ImageFormat.of(path: pipe)
        }
        for read in [{ _ = try PNGReader(path: pipe) }, { _ = try JPEGReader(path: pipe) },
                     { _ = try TIFFReader(path: pipe) }, { _ = try WebPImage.decode(path: pipe) },
                     { _ = try ImageFormat.info(path: pipe) }] as [() throws -> Void] {
            do {
                try read()
                Issue.record("a FIFO was read")
            } catch {
                #expect("\(error)" == expected)
            }
        }
    }

    @Test("every image reader refuses an empty file as empty, whatever its extension says, and names the path")
    func readersRefuseAnEmptyFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        for name in ["e.png", "e.jpg", "e.tif", "e.webp", "e.heic", "e"] {
            let path = folder.file(name)
            try Data().write(to: URL(fileURLWithPath: path))
            let expected = ImageIOError.unsupportedImage(file: path, detail: InputFile.emptyImageFile)
            #expect(throws: expected) { try ImageFormat.of(path: path) }
            #expect(throws: expected) { try ImageFormat.read(path: path) }
            #expect(throws: expected) { try ImageFormat.info(path: path) }
        }
        let empty = folder.file("x.png")
        try Data().write(to: URL(fileURLWithPath: empty))
        for read in [{ _ = try PNGReader(path: empty) }, { _ = try JPEGReader(path: empty) },
                     { _ = try TIFFReader(path: empty) }, { _ = try WebPImage.decode(path: empty) }]
            as [() throws -> Void] {
            #expect(throws: ImageIOError.unsupportedImage(file: empty, detail: InputFile.emptyImageFile)) {
                try read()
            }
        }
        let one = folder.file("one.png")
        try Data([0x89]).write(to: URL(fileURLWithPath: one))
        #expect(throws: ImageIOError.notPNG(file: one)) { try ImageFormat.read(path: one) }
    }
}
