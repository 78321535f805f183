import Foundation

/// The base URL providers are told to send their notifications to (`--public-url`,
/// `SWITCHYARD_PUBLIC_URL`), decided from what the operator configured and how the server runs.
///
/// The embedded default may use its own listening address. A server with an external database is a
/// deployment whose providers are elsewhere: a missing or loopback public URL would hand them
/// notification URLs they cannot reach, so it is refused unless loopback is allowed explicitly (tests).
public struct PublicURLChoice: Sendable, Equatable {
    /// `--public-url` or `SWITCHYARD_PUBLIC_URL` (the flag first), nil or empty when neither is set.
    public var configured: String?
    /// The address the server listens on (`--host`).
    public var host: String
    /// The port it listens on (`--port`).
    public var port: Int
    /// Whether the server uses an external database (`--database-url`) rather than the embedded default.
    public var externalDatabase: Bool
    /// `--allow-loopback-public-url`: an external-database server may use a loopback URL (tests).
    public var allowLoopback: Bool

    public init(configured: String?, host: String, port: Int, externalDatabase: Bool, allowLoopback: Bool) {
        self.configured = configured
        self.host = host
        self.port = port
        self.externalDatabase = externalDatabase
        self.allowLoopback = allowLoopback
    }

    /// The public URL, or why none can be used.
    public func decide() -> Result<String, PublicURLRefusal> {
        guard let configured, !configured.isEmpty else {
            return externalDatabase && !allowLoopback ? .failure(.missing) : .success(listeningURL)
        }
        guard let url = URLComponents(string: configured), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let urlHost = url.host, !urlHost.isEmpty,
            url.query == nil, url.fragment == nil
        else { return .failure(.malformed(configured)) }
        if externalDatabase && !allowLoopback && Self.isLoopback(urlHost) {
            return .failure(.loopback(configured))
        }
        return .success(configured)
    }

    /// `http://<host>:<port>`, with a wildcard listening address replaced by loopback.
    var listeningURL: String {
        let reachable = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
        let bracketed = reachable.contains(":") && !reachable.hasPrefix("[") ? "[\(reachable)]" : reachable
        return "http://\(bracketed):\(port)"
    }

    /// Whether a URL host names this machine only: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1`,
    /// or an unspecified address (`0.0.0.0`, `::`).
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        switch IPAddress(name) {
        case .v4(let value): return value >> 24 == 127 || value == 0
        case .v6(let bytes):
            let mappedV4 = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] <= 1 || mappedV4 && bytes[12] == 127
        case nil: return false
        }
    }
}

/// Why a server refuses its public URL; ``description`` names the flag and the variable that set it.
public enum PublicURLRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// None configured, with an external database.
    case missing
    /// Not an http(s) base URL.
    case malformed(String)
    /// A loopback address, with an external database and loopback not allowed.
    case loopback(String)

    /// A stable machine-readable code.
    public var code: String {
        switch self {
        case .missing: "public_url_missing"
        case .malformed: "public_url_invalid"
        case .loopback: "public_url_loopback"
        }
    }

    public var description: String {
        switch self {
        case .missing:
            "no public URL: a server with --database-url must be told the base URL providers send notifications "
                + "to; pass --public-url or set SWITCHYARD_PUBLIC_URL (e.g. https://payments.example.com)"
        case .malformed(let url):
            "the public URL \(url) (--public-url or SWITCHYARD_PUBLIC_URL) must be an http:// or https:// base "
                + "URL, e.g. https://payments.example.com"
        case .loopback(let url):
            "the public URL \(url) (--public-url or SWITCHYARD_PUBLIC_URL) is a loopback address providers cannot "
                + "reach: set it to this server's public base URL, or pass --allow-loopback-public-url "
                + "(SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL=1) for a test deployment"
        }
    }
}
