import Foundation

/// An IPv4 or IPv6 address, parsed from the host of a URL or returned by the resolver.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address as a 32-bit number (`127.0.0.1` is `0x7F00_0001`).
    case v4(UInt32)
    /// An IPv6 address: 16 bytes, network order.
    case v6([UInt8])

    /// Parses an IP literal: IPv6 (with or without brackets, no zone) or IPv4 in any spelling the
    /// system resolver accepts as an address (`127.0.0.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`).
    /// Nil when `text` is not an address.
    public init?(_ text: String) {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.contains(":") {
            guard let bytes = Self.parseIPv6(text) else { return nil }
            self = .v6(bytes)
        } else {
            guard let value = Self.parseIPv4(text) else { return nil }
            self = .v4(value)
        }
    }

    /// The canonical spelling (`127.0.0.1`, `::ffff:7f00:1` as the system writes it).
    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// IPv6 in the system's text forms (including `::ffff:127.0.0.1`).
    static func parseIPv6(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 64, !text.contains("%") else { return nil }
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// IPv4 as the URL standard and `inet_aton` read it: one to four dot-separated parts (a trailing dot
    /// allowed), each decimal, octal (leading `0`) or hex (`0x`); the last part fills the remaining bytes.
    static func parseIPv4(_ text: String) -> UInt32? {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseIPv4Part(part) else { return nil }
            numbers.append(number)
        }
        let last = numbers.removeLast()
        guard numbers.allSatisfy({ $0 <= 255 }) else { return nil }
        let remainingBits = UInt64(8 * (4 - numbers.count))
        guard last < (UInt64(1) << remainingBits) else { return nil }
        var value: UInt64 = 0
        for (index, number) in numbers.enumerated() { value |= number << UInt64(24 - 8 * index) }
        return UInt32(value | last)
    }

    private static func parseIPv4Part(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.count <= 34 else { return nil }
        var digits = part
        var radix = 10
        if digits.lowercased().hasPrefix("0x") {
            digits = digits.dropFirst(2)
            radix = 16
            if digits.isEmpty { return 0 }
        } else if digits.count > 1, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return UInt64(digits, radix: radix)
    }

    /// Whether a host name must be read as an IPv4 address (its last label is a number, as the URL
    /// standard says): such a host is either an address or invalid, never a name to resolve.
    public static func looksLikeIPv4(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lower = last.lowercased()
        return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}
