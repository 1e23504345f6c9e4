import Foundation
@testable import PluginHost
import Testing

@Suite("Plugin search path")
struct PluginSearchPathTests {
    @Test("in the executable's folder only the built-in plugins are candidates; a named folder lists every library")
    func executableFolderListsBuiltInsOnly() throws {
        let directory = try PluginTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["libGRDB-dynamic.so", "libTonePlugin.so", "libZPlugin.so", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()))
        }
        let names = { (files: [String]) in files.map { URL(fileURLWithPath: $0).lastPathComponent } }
        let own = try PluginSearchPath.pluginFiles(in: directory, builtInsOnly: true).get()
        #expect(names(own) == ["libTonePlugin.so", "libZPlugin.so"])
        let named = try PluginSearchPath.pluginFiles(in: directory).get()
        #expect(names(named) == ["libGRDB-dynamic.so", "libTonePlugin.so", "libZPlugin.so"])
    }

    @Test("the test binary's folder is recognised as the executable's folder, another folder is not")
    func recognisesTheExecutableFolder() throws {
        let own = try #require(PluginSearchPath.executableDirectory())
        #expect(PluginSearchPath.isExecutableDirectory(own))
        #expect(PluginSearchPath.isExecutableDirectory(own + "/"))
        #expect(!PluginSearchPath.isExecutableDirectory(NSTemporaryDirectory()))
    }
}
