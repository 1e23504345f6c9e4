import Foundation
import PluginHost
import Testing

@Suite("PluginSearchPath")
struct PluginSearchPathTests {
    @Test("order is --plugin-dir, then $LOOKSTUDIO_PLUGIN_PATH, then the executable's folder")
    func order() {
        let paths = PluginSearchPath.resolve(
            pluginDirs: ["/opt/a", "/opt/b"], environment: ["LOOKSTUDIO_PLUGIN_PATH": "/env/one:/env/two"],
            executableDirectory: "/usr/local/bin")
        #expect(paths == ["/opt/a", "/opt/b", "/env/one", "/env/two", "/usr/local/bin"])
    }

    @Test("empty entries of the variable never mean the current folder")
    func emptyEntriesIgnored() {
        let paths = PluginSearchPath.resolve(
            pluginDirs: [], environment: ["LOOKSTUDIO_PLUGIN_PATH": ":/env/one::"], executableDirectory: nil)
        #expect(paths == ["/env/one"])
        #expect(!paths.contains(FileManager.default.currentDirectoryPath))
        #expect(PluginSearchPath.resolve(pluginDirs: [], environment: [:], executableDirectory: nil).isEmpty)
    }

    @Test("a named relative folder is made absolute against the current folder")
    func relativeIsAbsolute() {
        let paths = PluginSearchPath.resolve(pluginDirs: ["plugins"], environment: [:], executableDirectory: nil)
        let expected = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("plugins").standardizedFileURL.resolvingSymlinksInPath().path
        #expect(paths == [expected])
    }

    @Test("a folder named twice, or spelled two ways, is searched once, at its first place")
    func duplicatesRemoved() {
        let paths = PluginSearchPath.resolve(
            pluginDirs: ["/opt/a", "/opt/./a/"], environment: ["LOOKSTUDIO_PLUGIN_PATH": "/opt/b:/opt/a"],
            executableDirectory: "/opt/b")
        #expect(paths == ["/opt/a", "/opt/b"])
    }

    @Test("the executable's folder is the build folder holding the built-in plugin libraries")
    func executableDirectoryHoldsBuiltIns() throws {
        let directory = try #require(PluginSearchPath.executableDirectory())
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        for name in ["TonePlugin", "WhiteBalancePlugin", "ColorPlugin", "BlendPlugin"] {
            #expect(files.contains("lib\(name).\(PluginSearchPath.pluginExtension)"))
        }
    }
}
