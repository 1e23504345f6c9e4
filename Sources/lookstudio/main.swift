import ArgumentParser
import Foundation
import ImageIO
import Workflows

// Every error is one `error: …` line on stderr. Argument errors add a hint line naming the subcommand's help and
// exit 64 (EX_USAGE); failures while running exit 1; `--help` and `--version` print as ArgumentParser does, exit 0.
let arguments = LookStudioCommand.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
var command: ParsableCommand
do {
    command = try LookStudioCommand.parseAsRoot(arguments)
} catch {
    let code = LookStudioCommand.exitCode(for: error)
    // `parseAsRoot` answers `--help` with a command whose `run` throws the help request; that stays ArgumentParser's.
    if code == .success { LookStudioCommand.exit(withError: error) }
    let message = LookStudioCommand.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
    let help = "lookstudio " + (LookStudioCommand.subcommandPath(arguments) + ["--help"]).joined(separator: " ")
    let suggestion = LookStudioCommand.subcommandSuggestion(arguments, message: message).map { "; \($0)" } ?? ""
    printError("error: \(LookStudioCommand.lowercased(message))\(suggestion)\nsee '\(help)'")
    exit(code.rawValue)
}
/// Prints `message` with the subcommand's help hint and exits 64 (EX_USAGE).
func usageError(_ message: String, arguments: [String]) -> Never {
    let help = "lookstudio " + (LookStudioCommand.subcommandPath(arguments) + ["--help"]).joined(separator: " ")
    printError("error: \(message)\nsee '\(help)'")
    exit(ExitCode.validationFailure.rawValue)
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
} catch let error as ValidationError {
    // An argument found wrong only while running (a look version a scene cannot take) is still a usage error.
    usageError(error.message, arguments: arguments)
} catch let error as WorkflowError where error.isUsageError {
    usageError(error.description, arguments: arguments)
} catch {
    printError("error: " + ErrorText.commandLine(error))
    exit(1)
}
