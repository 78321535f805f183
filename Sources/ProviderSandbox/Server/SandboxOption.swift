/// One option of `switchyard sandbox` (`--<name> VALUE`, repeatable) that configures an emulator.
public struct SandboxOption: Sendable {
    /// The option's name without the leading dashes, e.g. `citcon-merchant`.
    public let name: String
    /// What `--help` says about it.
    public let help: String
    /// Applies every value given for the option (in order; empty when the option was not given).
    let apply: @Sendable ([String], inout SandboxConfiguration) throws(SandboxCommandLineError) -> Void

    init(
        name: String, help: String,
        apply: @escaping @Sendable ([String], inout SandboxConfiguration) throws(SandboxCommandLineError) -> Void
    ) {
        self.name = name
        self.help = help
        self.apply = apply
    }

    /// An option whose every value is parsed by `parse` into a list the configuration takes whole;
    /// `fallback` is the list when the option is not given. A value `parse` refuses is an error saying
    /// the option takes `form`.
    static func list<Item: Sendable>(
        _ name: String, form: String, help: String, fallback: [Item] = [],
        parse: @escaping @Sendable (String) -> Item?,
        set: @escaping @Sendable ([Item], inout SandboxConfiguration) -> Void
    ) -> SandboxOption {
        SandboxOption(name: name, help: help) { values, configuration throws(SandboxCommandLineError) in
            var items: [Item] = []
            for value in values {
                guard let item = parse(value) else {
                    throw SandboxCommandLineError("--\(name) takes \(form)")
                }
                items.append(item)
            }
            set(values.isEmpty ? fallback : items, &configuration)
        }
    }
}

/// A `switchyard sandbox` argument the registered emulators refuse; the message names the option.
public struct SandboxCommandLineError: Error, Sendable, Equatable {
    /// What is wrong, e.g. `--citcon-merchant takes id:private_key:ipn_secret`.
    public let message: String

    init(_ message: String) { self.message = message }
}
