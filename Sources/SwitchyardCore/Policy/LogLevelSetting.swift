import Foundation
import Logging

/// The `LOG_LEVEL` environment variable read strictly: any case (`INFO`, `info`), `warn` for `warning`;
/// unset or empty means `info`; anything else is refused rather than silently ignored.
public enum LogLevelSetting {
    /// The level `text` names.
    public static func parse(_ text: String?) throws(InvalidLogLevel) -> Logger.Level {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .info }
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        if name == "warn" { return .warning }
        guard let level = Logger.Level(rawValue: name) else { throw InvalidLogLevel(value: text) }
        return level
    }
}

/// A `LOG_LEVEL` that names no level.
public struct InvalidLogLevel: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the variable held.
    public var value: String
    /// A stable machine-readable code.
    public var code: String { "invalid_log_level" }

    public var description: String {
        let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
        return "LOG_LEVEL=\(value) is not a log level: use one of \(levels) (any case)"
    }
}
