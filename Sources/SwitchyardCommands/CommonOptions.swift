import ArgumentParser
import Foundation
import Logging
import PluginHost
import SwitchyardApp
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore

/// Options shared by the commands that touch the database.
package struct DatabaseOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("database-url"),
        help:
            "libpq connection string or URL (or SWITCHYARD_DATABASE_URL). Without it, `switchyard` starts a private PostgreSQL cluster in the data directory and `switchyard-server` refuses to run."
    )
    package var databaseURLOption: String?

    /// The database URL from the option or the environment.
    package var databaseURL: String? {
        databaseURLOption ?? CommandSupport.environment("SWITCHYARD_DATABASE_URL")
    }

    @Option(help: "Directory for the embedded default's state (database cluster, keys, demo.json).")
    package var dataDir: String = ".switchyard"

    @Option(
        help:
            "File holding the 32-byte key-encryption key (base64 or hex); SWITCHYARD_KEK overrides it. The embedded default generates it there (mode 0600) when missing; without this option it keeps the key in the data directory."
    )
    package var kekFile: String?

    @Option(
        name: .customLong("kek-previous-file"),
        help:
            "File holding an older key-encryption key that still opens what it sealed (repeatable; SWITCHYARD_KEK_PREVIOUS adds a comma-separated list). Values are always sealed under the current key; see `switchyard kek rotate`."
    )
    package var kekPreviousFiles: [String] = []

    @Option(
        name: .customLong("policy"),
        help:
            "The platform policy file (or SWITCHYARD_POLICY; default: policy.json; the embedded default, when neither is given, writes and uses a development policy in the data directory)."
    )
    package var policyOption: String?
    /// The policy file given by the option or the environment.
    package var configuredPolicy: String? { policyOption ?? CommandSupport.environment("SWITCHYARD_POLICY") }
    /// The policy file a server with a database URL reads.
    package var policy: String { configuredPolicy ?? "policy.json" }
}

package enum CommandSupport {
    /// A logger for the executable; LOG_LEVEL chooses the level (info by default, any case); a value that
    /// names no level is refused.
    package static func logger(_ label: String = "switchyard") throws -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = try logLevel()
        return logger
    }

    /// The level LOG_LEVEL names (``LogLevelSetting``), refused with a usage error when it names none.
    package static func logLevel() throws -> Logger.Level {
        do {
            return try LogLevelSetting.parse(ProcessInfo.processInfo.environment["LOG_LEVEL"])
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// An environment variable's value; nil when unset or empty.
    package static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An integer environment variable; a value that is not one is refused, naming the variable.
    package static func environmentInteger(_ name: String) throws -> Int? {
        guard let value = environment(name) else { return nil }
        guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("\(name)=\(value) must be an integer")
        }
        return number
    }

    /// A yes/no environment variable (`1`, `true`, `yes` or `0`, `false`, `no`, any case); unset is no.
    package static func environmentFlag(_ name: String) throws -> Bool {
        guard let value = environment(name)?.lowercased() else { return false }
        if ["1", "true", "yes"].contains(value) { return true }
        if ["0", "false", "no"].contains(value) { return false }
        throw ValidationError("\(name)=\(value) must be 1 or 0 (true or false)")
    }

    /// The absolute form of a path relative to the working directory.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The directory holding this executable (and the plugins built beside it).
    package static func executableDirectory() -> String {
        let resolved =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (absolute(resolved) as NSString).deletingLastPathComponent
    }

    /// Reads the policy file; a missing one is an error.
    package static func loadPolicy(_ path: String) throws -> (PluginPolicy, PlatformPolicy) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError(
                "policy file \(path) not found: a server with --database-url needs its platform policy (start from "
                    + "the repository's policy.json and pass --policy); only the embedded default makes its own "
                    + "(when --policy is not given)")
        }
        return try SwitchyardRuntime.readPolicy(path: path)
    }

    /// The keyring: the current key-encryption key from SWITCHYARD_KEK or `--kek-file`, and the previous
    /// keys from SWITCHYARD_KEK_PREVIOUS (comma-separated) and every `--kek-previous-file`. Nil when no
    /// current key is configured.
    ///
    /// With `generate`, a missing `--kek-file` is created with a new key (mode 0600 from the start).
    package static func secretBox(_ options: DatabaseOptions, generate: Bool = false) throws -> SecretBox? {
        let current: String
        if let value = environment("SWITCHYARD_KEK") {
            current = value
        } else if let kekFile = options.kekFile {
            let path = absolute(kekFile)
            current =
                generate && !FileManager.default.fileExists(atPath: path)
                ? try StateFile.secret(at: path, make: newKEK) : try keyFile(path, flag: "--kek-file")
        } else {
            return nil
        }
        return try secretBox(current: current, options)
    }

    /// The keyring of `current` and the previous keys of `options` and the environment.
    package static func secretBox(current: String, _ options: DatabaseOptions) throws -> SecretBox {
        do {
            _ = try SecretBox(encoded: current)
        } catch {
            throw ValidationError("the key-encryption key (SWITCHYARD_KEK or --kek-file) cannot be read: \(error)")
        }
        var previous = (environment("SWITCHYARD_KEK_PREVIOUS") ?? "").split(separator: ",").map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        for file in options.kekPreviousFiles {
            previous.append(try keyFile(file, flag: "--kek-previous-file"))
        }
        do {
            return try SecretBox(encoded: current, previous: previous)
        } catch {
            throw ValidationError(
                "a previous key-encryption key (SWITCHYARD_KEK_PREVIOUS or --kek-previous-file) cannot be read: "
                    + "\(error)")
        }
    }

    /// A new random key-encryption key, base64.
    package static func newKEK() -> String {
        Data(SecureRandom.bytes(32)).base64EncodedString()
    }

    /// Applies the schema's pending migrations through `url` (the owner's connection).
    package static func migrate(url: String, logger: Logger) async throws -> [Int] {
        try await PGPool.scoped(connectionString: url, logger: logger) { pool in
            try await Migrator.migrate(pool, migrations: Schema.migrations, logger: logger)
        }
    }
}
