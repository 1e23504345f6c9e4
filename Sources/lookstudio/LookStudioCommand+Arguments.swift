import ArgumentParser
import LookCore

/// Argument text the parser needs help with.
extension LookStudioCommand {
    /// `--strength -5` becomes `--strength=-5`: ArgumentParser reads a lone `-5` as a short flag, so the option
    /// would report a missing value; joined, the option's own range check answers instead. Only a long option
    /// without `=` followed by a number is joined.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), index + 1 < arguments.count,
               isNegativeNumber(arguments[index + 1]) {
                result.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            result.append(argument)
            index += 1
        }
        return result
    }

    /// `-5`, `-0.5`, `-.5`, and comma lists such as `-5,10`.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        return text.dropFirst().split(separator: ",", omittingEmptySubsequences: false).allSatisfy {
            Double($0.hasPrefix("-") ? String($0.dropFirst()) : String($0)) != nil
        }
    }

    /// The subcommand names at the start of `arguments` (`["looks", "versions"]`), for the help hint.
    static func subcommandPath(_ arguments: [String]) -> [String] {
        var path: [String] = []
        var current: ParsableCommand.Type = LookStudioCommand.self
        // Option values may come between the names (`--catalog PATH looks list`), so other words are passed over.
        for argument in arguments where !argument.hasPrefix("-") {
            guard let next = current.configuration.subcommands.first(where: {
                $0._commandName == argument || $0.configuration.aliases.contains(argument)
            }) else { continue }
            path.append(argument)
            current = next
        }
        return path
    }

    /// "did you mean …?" for a word that is no subcommand where one was expected (`lookstudio lokos list`), from the
    /// subcommands of the command the word follows; nil when the message is about something else or none is near.
    static func subcommandSuggestion(_ arguments: [String], message: String) -> String? {
        // "Unexpected argument 'X'" or "N unexpected arguments: 'X', 'Y'": the first is where a subcommand was due.
        guard message.lowercased().contains("unexpected argument"), let open = message.firstIndex(of: "'"),
              let close = message[message.index(after: open)...].firstIndex(of: "'") else { return nil }
        let word = String(message[message.index(after: open)..<close])
        var current: ParsableCommand.Type = LookStudioCommand.self
        for name in subcommandPath(arguments) {
            guard let next = current.configuration.subcommands.first(where: { $0._commandName == name }) else { break }
            current = next
        }
        let names = current.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
        let near = MessageText.nearest(to: word, among: names)
        return near.isEmpty ? nil : "did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// ArgumentParser's messages start with a capital ("Missing value …"); ours are lower-case after `error:`.
    static func lowercased(_ message: String) -> String {
        guard let first = message.first, first.isUppercase, !message.dropFirst().prefix(1).allSatisfy(\.isUppercase)
        else { return message }
        return first.lowercased() + message.dropFirst()
    }
}
