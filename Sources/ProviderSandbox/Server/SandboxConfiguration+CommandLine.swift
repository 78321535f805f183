extension SandboxConfiguration {
    /// Every registered emulator's `switchyard sandbox` options, in registration order.
    public static var commandLineOptions: [SandboxOption] { SandboxRegistration.all.flatMap(\.options) }

    /// The configuration `switchyard sandbox` runs with: every registered option applied to the values
    /// given for it (`--name VALUE` or `--name=VALUE`, each option repeatable), then each emulator's checks.
    /// - Parameter arguments: the emulators' arguments, in the order given.
    /// - Throws: ``SandboxCommandLineError`` for an unknown option, a missing or malformed value, or a
    ///   configuration an emulator refuses.
    public static func commandLine(_ arguments: [String]) throws(SandboxCommandLineError) -> SandboxConfiguration {
        var values: [String: [String]] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw SandboxCommandLineError("unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            let value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                index += 1
                guard index < arguments.endIndex else { throw SandboxCommandLineError("--\(name) needs a value") }
                value = arguments[index]
            }
            guard commandLineOptions.contains(where: { $0.name == name }) else {
                throw SandboxCommandLineError("unknown option '--\(name)'")
            }
            values[name, default: []].append(value)
            index += 1
        }
        var configuration = SandboxConfiguration()
        for registration in SandboxRegistration.all {
            for option in registration.options {
                try option.apply(values[option.name] ?? [], &configuration)
            }
            try registration.check(configuration)
        }
        return configuration
    }
}
