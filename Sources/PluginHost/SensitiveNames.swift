/// Which header and metadata names carry secrets, so their values are never logged.
enum SensitiveNames {
    /// What a redacted value is replaced with.
    static let redacted = "[redacted]"

    private static let exactNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
    private static let fragments = [
        "key", "secret", "token", "sign", "password", "passwd", "credential", "auth", "session",
    ]

    /// Whether values under `name` must not be logged. `extra` names are matched case-insensitively.
    static func isSensitive(_ name: String, extra: [String] = []) -> Bool {
        let lower = name.lowercased()
        if exactNames.contains(lower) || extra.contains(where: { $0.lowercased() == lower }) {
            return true
        }
        return fragments.contains { lower.contains($0) }
    }

    /// `headers` as `name: value` lines for a log, with sensitive values redacted.
    static func loggable(_ headers: [(name: String, value: String)], extra: [String]) -> String {
        headers.map { "\($0.name): \(isSensitive($0.name, extra: extra) ? redacted : $0.value)" }.joined(
            separator: ", ")
    }

    /// `metadata` with sensitive values redacted.
    static func redact(_ metadata: [String: String]) -> [String: String] {
        var result = metadata
        for key in metadata.keys where isSensitive(key) {
            result[key] = redacted
        }
        return result
    }
}
