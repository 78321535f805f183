import Foundation

/// The policy's `operator_sso` section: operators signed in by a reverse proxy in front of Switchyard
/// (oauth2-proxy, an ingress with external authentication) that names the person and their groups in
/// request headers. Off by default. When on, the headers are believed only from ``trustedProxies``; a
/// request carrying them from any other address is refused, and a person none of whose groups maps to a
/// role is refused too. A bearer token, when a request has one, is used instead.
public struct OperatorSingleSignOn: PolicySection {
    public var enabled = false
    /// The proxies' addresses, as CIDR blocks (`10.0.0.0/8`, `fd00::/8`) or single addresses.
    public var trustedProxies: [String] = []
    /// The header naming the person (oauth2-proxy's `X-Forwarded-User`, or `X-Forwarded-Email`).
    public var userHeader = "X-Forwarded-User"
    /// The header listing the person's groups, comma-separated.
    public var groupsHeader = "X-Forwarded-Groups"
    /// Group → role (`viewer`, `support` or `admin`); a person in several gets the widest role.
    public var groupRoles: [String: String] = [:]

    public init() {}

    public static let name = "operator_sso"
    public static let fields: [PolicyField<OperatorSingleSignOn>] = [
        .key("enabled", \.enabled, "Whether operators signed in by a trusted reverse proxy are let in."),
        .key(
            "trusted_proxies", \.trustedProxies, range: "CIDR blocks or addresses",
            check: { blocks in
                blocks.allSatisfy { AddressBlock($0) != nil } ? nil : "must hold CIDR blocks such as 10.0.0.0/8"
            }, "The reverse proxies whose identity headers are believed."),
        .key(
            "user_header", \.userHeader, range: "a header name",
            check: { validHeader($0) ? nil : "must be a header name" }, "The header naming the person."),
        .key(
            "groups_header", \.groupsHeader, range: "a header name",
            check: { validHeader($0) ? nil : "must be a header name" }, "The header listing the person's groups."),
        .key(
            "group_roles", \.groupRoles, range: "group → viewer, support or admin",
            check: { roles in
                roles.values.allSatisfy { OperatorRole(rawValue: $0) != nil }
                    ? nil : "must map groups to viewer, support or admin"
            }, "The role of each group."),
    ]

    static func validHeader(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// Whether the proxy at `address` may name operators.
    public func trusts(_ address: String?) -> Bool {
        guard let address else { return false }
        return trustedProxies.contains { AddressBlock($0)?.contains(address) == true }
    }

    /// The identity of a person named `user` with `groups`, as the proxy said: the widest role their groups
    /// map to; nil when none does.
    public func identity(user: String, groups: [String]) -> OperatorIdentity? {
        let roles = groups.compactMap { groupRoles[$0].flatMap(OperatorRole.init(rawValue:)) }
        let order: [OperatorRole] = [.admin, .support, .viewer]
        guard let role = order.first(where: roles.contains) else { return nil }
        return OperatorIdentity(id: nil, name: "sso:" + user, role: role)
    }
}

/// An address block (`10.0.0.0/8`, `::1/128`, or a single address), IPv4 or IPv6.
public struct AddressBlock: Sendable, Equatable {
    let bytes: [UInt8]
    let prefix: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = Self.bytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix) else { return nil }
            self.prefix = prefix
        } else {
            self.prefix = bits
        }
        self.bytes = bytes
    }

    /// Whether `address` (IPv4 or IPv6 text) lies in the block. An IPv4 address mapped into IPv6
    /// (`::ffff:10.0.0.1`) is compared as IPv4.
    public func contains(_ address: String) -> Bool {
        guard var other = Self.bytes(address) else { return false }
        if other.count == 16, bytes.count == 4, other[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff][...] {
            other = Array(other[12...])
        }
        guard other.count == bytes.count else { return false }
        var left = prefix
        for (a, b) in zip(bytes, other) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
            if a & mask != b & mask { return false }
            left -= 8
        }
        return true
    }

    /// The address's bytes: 4 for IPv4, 16 for IPv6; nil when it is neither.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
