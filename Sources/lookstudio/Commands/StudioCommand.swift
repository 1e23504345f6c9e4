import ArgumentParser
import Dispatch
import Foundation
import LookCore
import PluginHost
import Studio
import Workflows

/// `lookstudio studio`: the local web app for authoring looks on the given photos.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Author looks live in a local web app: adjust, see, save.",
        discussion: """
        Serves the studio on 127.0.0.1 only and prints one URL carrying a random access token (open it in a \
        browser on this machine). Requests without the token, or from another Host or Origin, get 403. Ctrl-C \
        stops it. The JSON API the page uses is documented in the README ("The studio").

        Examples:
          lookstudio studio photo.jpg
          lookstudio studio ~/Pictures/shoot --port 8123
        """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Photos, or folders of photos, to author on.", valueName: "photo|folder"))
    var photos: [String] = []

    @Option(help: "Port on 127.0.0.1 (0 picks a free one and prints it).")
    var port: Int = 8765

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError(TextNumber.outOfRange("--port", port, 0...65535))
        }
    }

    func run() throws {
        let session = try StudioSession(paths: photos, catalogPath: global.catalogPath,
                                        pluginSearchPaths: PluginSearchPath.standard(pluginDirs: global.pluginDir))
        // SIGINT and SIGTERM stop the server gracefully (its own handlers), so this runs on them too.
        defer { session.removeUploads() }
        for refusal in session.registry.refusals { printError("warning: \(refusal)") }
        let server = StudioServer(session: session, port: port)
        let outcome = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The CLI's root command is synchronous; the server runs in a task and this thread waits for it to stop.
        Task {
            do {
                // Written straight to the descriptor: a pipe reader (a test, a script) sees the URL at once.
                try await server.run { url in FileHandle.standardOutput.write(Data((url + "\n").utf8)) }
            } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.current { throw error }
        printError("studio stopped")
    }
}
