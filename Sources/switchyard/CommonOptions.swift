import ArgumentParser
import Foundation
import Logging
import PluginHost
import SwitchyardCore
import SwitchyardHTTP
import SwitchyardStore

/// Options shared by the commands that touch the database.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help:
            "libpq connection string or URL (or SWITCHYARD_DATABASE_URL). Without it, a private PostgreSQL cluster is started in the data directory."
    )
    var databaseURLOption: String?

    /// The database URL from the option or the environment.
    var databaseURL: String? {
        databaseURLOption
            ?? ProcessInfo.processInfo.environment["SWITCHYARD_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Option(help: "Directory for the embedded default's state (database cluster, keys, demo.json).")
    var dataDir: String = ".switchyard"

    @Option(help: "File holding the 32-byte key-encryption key (base64 or hex). SWITCHYARD_KEK overrides it.")
    var kekFile: String?

    @Option(help: "The platform policy file.")
    var policy: String = "policy.json"
}

enum CommandSupport {
    /// A logger for the executable; LOG_LEVEL chooses the level (info by default).
    static func logger(_ label: String = "switchyard") -> Logger {
        var logger = Logger(label: label)
        logger.logLevel =
            ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }

    /// The absolute form of a path relative to the working directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The directory holding this executable (and the plugins built beside it).
    static func executableDirectory() -> String {
        let resolved =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (absolute(resolved) as NSString).deletingLastPathComponent
    }

    /// Reads the policy file; a missing file is an error unless `fallback` is given.
    static func loadPolicy(_ path: String, fallback: (PluginPolicy, PlatformPolicy)? = nil) throws -> (
        PluginPolicy, PlatformPolicy
    ) {
        guard FileManager.default.fileExists(atPath: path) else {
            if let fallback { return fallback }
            throw ValidationError("policy file \(path) not found")
        }
        return try SwitchyardRuntime.readPolicy(path: path)
    }

    /// The key-encryption key from SWITCHYARD_KEK or a file.
    static func secretBox(kekFile: String?) throws -> SecretBox? {
        if let value = ProcessInfo.processInfo.environment["SWITCHYARD_KEK"], !value.isEmpty {
            return try SecretBox(encoded: value)
        }
        if let kekFile {
            return try SecretBox(encoded: try String(contentsOfFile: kekFile, encoding: .utf8))
        }
        return nil
    }
}
