import ArgumentParser
import Foundation
import ImageIO

// Usage errors keep ArgumentParser's help-pointing messages; failures while running print `error: …` and exit 1.
// `parseAsRoot` answers `--help` with a command whose `run` throws the help request, so that path goes back to
// ArgumentParser too.
var command: ParsableCommand
do {
    command = try LookStudioCommand.parseAsRoot()
} catch {
    LookStudioCommand.exit(withError: error)
}
// SIGINT/SIGTERM remove every temporary output file in flight, then end the process by the signal.
try? Interruption.install(.exit)
do {
    try command.run()
} catch let error as ExitCode {
    LookStudioCommand.exit(withError: error)
} catch let error as CleanExit {
    LookStudioCommand.exit(withError: error)
} catch where LookStudioCommand.exitCode(for: error) == .success {
    LookStudioCommand.exit(withError: error)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
