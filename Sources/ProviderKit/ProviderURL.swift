#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Building the URLs of a provider's API from an account's base URL.
public enum ProviderURL {
    /// An endpoint: the URL to send to, and its path as it appears on the wire (the base URL's own path
    /// included), which is what request signatures cover.
    public struct Endpoint: Sendable, Equatable {
        public var url: String
        public var path: String

        public init(url: String, path: String) {
            self.url = url
            self.path = path
        }
    }

    /// The base URL joined with an absolute path (trailing slashes of the base removed); not validated.
    public static func join(base: String, path: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// The endpoint of `path` under `base`; nil unless the base is an absolute http(s) URL with a host and
    /// without query or fragment (surrounding blanks and trailing slashes are ignored).
    public static func endpoint(base: String, path: String) -> Endpoint? {
        var base = base.trimmingBlanks()
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false,
            components.percentEncodedQuery == nil, components.fragment == nil
        else { return nil }
        return Endpoint(url: base + path, path: components.percentEncodedPath + path)
    }

    /// Like ``endpoint(base:path:)``, for the account's base URL.
    ///
    /// - Throws: `misconfigured` when the base URL is not an absolute http(s) URL.
    public static func requireEndpoint(base: String, path: String) throws -> Endpoint {
        guard let endpoint = endpoint(base: base, path: path) else {
            throw ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")
        }
        return endpoint
    }

    /// One path segment, percent-encoded (a `/` inside the value is encoded too).
    public static func pathSegment(_ value: String) -> String {
        FormEncoding.percentEncode(value) { byte in
            switch byte {
            // Foundation's `urlPathAllowed`: RFC 3986 `pchar` (unreserved, sub-delims, `:`, `@`) without `;`.
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                true
            default: false
            }
        }
    }
}
