import Foundation
import Testing
@testable import LookCatalog

struct CatalogLocationTests {
    @Test func explicitPathWinsOverEnvironment() {
        let env = ["LOOKSTUDIO_CATALOG": "/env/c.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]
        #expect(CatalogLocation.catalogPath(explicit: "/flag/c.sqlite", environment: env) == "/flag/c.sqlite")
        #expect(CatalogLocation.catalogPath(explicit: nil, environment: env) == "/env/c.sqlite")
    }

    @Test func xdgDataHomeThenHome() {
        #expect(CatalogLocation.catalogPath(explicit: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/h"])
                == "/xdg/lookstudio/catalog.sqlite")
        #expect(CatalogLocation.catalogPath(explicit: nil, environment: ["HOME": "/h"])
                == "/h/.local/share/lookstudio/catalog.sqlite")
        // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
        #expect(CatalogLocation.catalogPath(explicit: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/lookstudio/catalog.sqlite")
    }

    @Test func createsMissingFolders() throws {
        let path = "\(try TestSupport.tempDir())/a/b/catalog.sqlite"
        try CatalogLocation.createParentFolder(of: path)
        var isDir: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent, isDirectory: &isDir))
        #expect(isDir.boolValue)
    }

    @Test func aFolderThatCannotBeMadeIsNamedWithTheSystemsReason() throws {
        let dir = try TestSupport.tempDir()
        _ = FileManager.default.createFile(atPath: dir + "/afile", contents: Data("x".utf8))
        #expect(throws: CatalogError.cannotCreateFolder(path: dir + "/afile", "Not a directory")) {
            try CatalogLocation.createParentFolder(of: dir + "/afile/catalog.sqlite")
        }
    }

    @Test func seedSearchOrder() {
        #expect(CatalogLocation.seedCandidates(explicit: "/x", environment: ["LOOKSTUDIO_SEED_DIR": "/env"],
                                               executablePath: "/opt/ls/bin/lookstudio") == ["/x"])
        let c = CatalogLocation.seedCandidates(explicit: nil, environment: ["LOOKSTUDIO_SEED_DIR": "/env"],
                                               executablePath: "/opt/ls/bin/lookstudio")
        #expect(c == ["/env", "/opt/ls/bin", "/opt/ls/bin/share/lookstudio", "/opt/ls", "/opt/ls/share/lookstudio",
                      "/opt", "/opt/share/lookstudio", "/usr/local/share/lookstudio", "/usr/share/lookstudio"])
    }

    @Test func aLibraryInstalledUnderAPrefixFindsTheSeedInItsShareFolder() throws {
        let prefix = try TestSupport.tempDir()
        try FileManager.default.createDirectory(atPath: prefix + "/share/lookstudio/Catalog",
                                                withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: prefix + "/share/lookstudio/Catalog/scenes.yaml",
                                               contents: Data()))
        let found = CatalogLocation.findSeed(explicit: nil, environment: [:],
                                             executablePath: prefix + "/lib/liblookstudio.so")
        #expect(found == prefix + "/share/lookstudio")
    }

    @Test func seedFoundByWalkingUpFromTheExecutable() {
        let exe = "\(TestSupport.packageRoot)/.build/debug/lookstudio"
        #expect(CatalogLocation.findSeed(explicit: nil, environment: [:], executablePath: exe)
                == TestSupport.packageRoot)
    }
}
