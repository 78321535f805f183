import Foundation

/// Resolves host names to addresses (the system resolver in production, a table in tests).
public protocol HostResolver: Sendable {
    /// Every address `host` resolves to; empty or a thrown error when it does not resolve in `timeout`.
    func resolve(_ host: String, timeout: Duration) async throws -> [IPAddress]
}

/// Where a webhook may be sent, decided once per registration and once per delivery: the URL's host
/// must be a public address, or a name whose every address is public, unless the operator trusts the
/// host (`webhooks.allow_hosts`). A delivery connects to the address that was checked, so a name that
/// changes its answer between the check and the connection reaches nothing new.
public struct WebhookEgress: Sendable {
    /// How a checked delivery connects.
    public enum Route: Sendable, Equatable {
        /// To the URL's host as the resolver answers (the operator trusts that host).
        case trusted
        /// To this checked address; the URL's host still names the server (Host header, TLS name).
        case pinned(IPAddress)
    }

    /// Why a URL may not be used.
    public enum Refusal: Error, Sendable, Equatable {
        /// Not an absolute http(s) URL with a valid host, or http where https is required.
        case invalidURL(String)
        /// The host is or resolves to an address webhooks may not reach.
        case forbidden(EgressAddress.Block?)
        /// The name did not resolve.
        case unresolved
    }

    /// The operator's trusted hosts, lowercased without a trailing dot.
    let allowedNames: Set<String>
    /// Trusted literal addresses, also admitted when a name resolves to them.
    let allowedAddresses: Set<IPAddress>
    let requireHTTPS: Bool
    let resolver: any HostResolver

    /// A check under the webhook section of the platform policy.
    public init(policy: PlatformPolicy.Webhooks, resolver: any HostResolver) {
        var names = Set<String>()
        var addresses = Set<IPAddress>()
        for entry in policy.allowHosts {
            let host = Self.normalise(entry)
            if let address = Self.literal(host) {
                addresses.insert(address)
            } else {
                names.insert(host)
            }
        }
        allowedNames = names
        allowedAddresses = addresses
        requireHTTPS = policy.requireHTTPS
        self.resolver = resolver
    }

    /// The host of `url` as checks see it: lowercased, without brackets or one trailing dot.
    static func normalise(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }

    static func isDottedQuad(_ host: String) -> Bool {
        guard let address = IPAddress(host), case .v4 = address else { return false }
        return address.description == host
    }

    /// The scheme and host of an absolute http(s) URL without credentials, or the refusal.
    public func parse(_ url: String) throws(Refusal) -> (scheme: String, host: String) {
        guard url.count <= 2048, let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let raw = parsed.percentEncodedHost, !raw.isEmpty
        else { throw .invalidURL("url must be an absolute http or https URL") }
        guard parsed.user == nil, parsed.password == nil, parsed.fragment == nil else {
            throw .invalidURL("url must not carry credentials or a fragment")
        }
        // Percent-escapes and zone ids in a host only serve to disguise it.
        guard !raw.contains("%") else { throw .invalidURL("url host must be written plainly") }
        let host = Self.normalise(raw)
        guard !host.isEmpty, !host.hasPrefix("."), !host.contains("..") else {
            throw .invalidURL("url host is not valid")
        }
        return (scheme, host)
    }

    /// The address `host` spells, when it is an IP literal rather than a name.
    static func literal(_ host: String) -> IPAddress? {
        guard host.contains(":") || IPAddress.looksLikeIPv4(host) else { return nil }
        return IPAddress(host)
    }

    /// Whether the operator trusts `host` (a name or literal address in `allow_hosts`).
    func trusts(_ host: String) -> Bool {
        if allowedNames.contains(host) { return true }
        return Self.literal(host).map(allowedAddresses.contains) ?? false
    }

    /// Checks `url` and decides how to reach it: a trusted host as is; a literal address when public;
    /// a name when it resolves and every address is public (the first one is then used).
    public func route(_ url: String, timeout: Duration) async throws(Refusal) -> Route {
        let (scheme, host) = try parse(url)
        if trusts(host) { return .trusted }
        guard scheme == "https" || !requireHTTPS else { throw .invalidURL("url must use https") }
        if host.contains(":") || IPAddress.looksLikeIPv4(host) {
            guard let address = IPAddress(host) else { throw .invalidURL("url host is not a valid address") }
            if let block = EgressAddress.block(address) { throw .forbidden(block) }
            guard host.contains(":") || Self.isDottedQuad(host) else {
                throw .invalidURL("write an IPv4 address as four decimal numbers")
            }
            return .pinned(address)
        }
        if host == "localhost" || host.hasSuffix(".localhost") { throw .forbidden(.loopback) }
        let addresses: [IPAddress]
        do {
            addresses = try await resolver.resolve(host, timeout: timeout)
        } catch {
            throw .unresolved
        }
        guard let first = addresses.first else { throw .unresolved }
        for address in addresses where !allowedAddresses.contains(address) {
            if let block = EgressAddress.block(address) { throw .forbidden(block) }
        }
        return .pinned(first)
    }

    /// The registration check: like ``route(_:timeout:)``, but a name that does not resolve yet is
    /// accepted (each delivery checks it again). Throws `invalid_webhook_url` or `endpoint_address_forbidden`.
    public func checkRegistration(_ url: String, timeout: Duration) async throws(CoreError) {
        do {
            _ = try await route(url, timeout: timeout)
        } catch {
            switch error {
            case .invalidURL(let message):
                throw CoreError(.invalidWebhookURL, message)
            case .forbidden:
                throw CoreError(
                    .endpointAddressForbidden,
                    "url must reach a public address; loopback, private, link-local and reserved addresses are refused"
                )
            case .unresolved:
                return
            }
        }
    }
}
