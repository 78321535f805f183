import Foundation

/// Which addresses outbound webhook traffic may reach: only global unicast ones. Everything a tenant
/// could use to reach the platform's own network (loopback, private, link-local and cloud metadata,
/// shared CGNAT space, multicast and broadcast, reserved and documentation ranges, and IPv6 forms
/// that embed such an IPv4 address) is refused.
public enum EgressAddress {
    /// Why an address is refused.
    public enum Block: String, Sendable, Equatable {
        case unspecified
        case loopback
        case `private`
        case linkLocal = "link_local"
        case sharedAddressSpace = "shared_address_space"
        case multicast
        case broadcast
        case benchmarking
        case documentation
        case reserved
    }

    /// Why `address` must not be reached, or nil when it is a global unicast address.
    public static func block(_ address: IPAddress) -> Block? {
        switch address {
        case .v4(let value): return block(v4: value)
        case .v6(let bytes): return block(v6: bytes)
        }
    }

    private static let v4Blocks: [(network: UInt32, prefix: Int, block: Block)] = [
        (0x0000_0000, 8, .unspecified),  // 0.0.0.0/8 "this network"
        (0x0A00_0000, 8, .private),  // 10/8
        (0x6440_0000, 10, .sharedAddressSpace),  // 100.64/10 carrier-grade NAT
        (0x7F00_0000, 8, .loopback),  // 127/8
        (0xA9FE_0000, 16, .linkLocal),  // 169.254/16, cloud metadata 169.254.169.254
        (0xAC10_0000, 12, .private),  // 172.16/12
        (0xC000_0000, 24, .reserved),  // 192.0.0/24 protocol assignments
        (0xC000_0200, 24, .documentation),  // 192.0.2/24 TEST-NET-1
        (0xC058_6300, 24, .reserved),  // 192.88.99/24 6to4 relay anycast
        (0xC0A8_0000, 16, .private),  // 192.168/16
        (0xC612_0000, 15, .benchmarking),  // 198.18/15
        (0xC633_6400, 24, .documentation),  // 198.51.100/24 TEST-NET-2
        (0xCB00_7100, 24, .documentation),  // 203.0.113/24 TEST-NET-3
        (0xE000_0000, 4, .multicast),  // 224/4
        (0xFFFF_FFFF, 32, .broadcast),  // 255.255.255.255
        (0xF000_0000, 4, .reserved),  // 240/4
    ]

    static func block(v4 value: UInt32) -> Block? {
        for entry in v4Blocks {
            let mask: UInt32 = entry.prefix == 0 ? 0 : ~UInt32(0) << UInt32(32 - entry.prefix)
            if value & mask == entry.network { return entry.block }
        }
        return nil
    }

    static func block(v6 bytes: [UInt8]) -> Block? {
        guard bytes.count == 16 else { return .reserved }
        func prefix(_ pattern: [UInt8], bits: Int) -> Bool {
            for bit in 0..<bits {
                let mask = UInt8(0x80) >> UInt8(bit % 8)
                if bytes[bit / 8] & mask != pattern[bit / 8] & mask { return false }
            }
            return true
        }
        func v4(at offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let zero = [UInt8](repeating: 0, count: 16)
        if bytes == zero { return .unspecified }
        if bytes == zero.dropLast() + [1] { return .loopback }
        // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d and SIIT ::ffff:0:a.b.c.d: what they embed,
        // and never reachable as IPv6 anyway.
        if prefix(zero, bits: 80), bytes[10] == 0xFF, bytes[11] == 0xFF { return block(v4: v4(at: 12)) ?? .reserved }
        if prefix(zero, bits: 96) { return block(v4: v4(at: 12)) ?? .reserved }
        if prefix(zero, bits: 64), bytes[8] == 0xFF, bytes[9] == 0xFF, bytes[10] == 0, bytes[11] == 0 {
            return block(v4: v4(at: 12)) ?? .reserved
        }
        // NAT64 64:ff9b::/96 reaches the embedded IPv4 address; 64:ff9b:1::/48 is for local use.
        if prefix([0x00, 0x64, 0xFF, 0x9B] + zero.prefix(12), bits: 96) { return block(v4: v4(at: 12)) }
        if prefix([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] + zero.prefix(10), bits: 48) { return .private }
        // 6to4 2002::/16 embeds an IPv4 address; the transition is obsolete, so the whole range is refused.
        if prefix([0x20, 0x02] + zero.prefix(14), bits: 16) { return block(v4: v4(at: 2)) ?? .reserved }
        if prefix([0x20, 0x01, 0x0D, 0xB8] + zero.prefix(12), bits: 32) { return .documentation }
        if prefix([0x3F, 0xFF] + zero.prefix(14), bits: 20) { return .documentation }
        if prefix([0x20, 0x01, 0x00, 0x02] + zero.prefix(12), bits: 48) { return .benchmarking }
        // 2001::/23 protocol assignments, including Teredo 2001::/32 (which embeds an IPv4 address).
        if prefix([0x20, 0x01] + zero.prefix(14), bits: 23) { return .reserved }
        if bytes[0] == 0xFF { return .multicast }
        if prefix([0xFE, 0x80] + zero.prefix(14), bits: 10) { return .linkLocal }
        if prefix([0xFE, 0xC0] + zero.prefix(14), bits: 10) { return .private }  // deprecated site-local
        if prefix([0xFC] + zero.prefix(15), bits: 7) { return .private }  // unique local fc00::/7
        // Only 2000::/3 is global unicast (discard-only 100::/64 and the rest are not).
        if !prefix([0x20] + zero.prefix(15), bits: 3) { return .reserved }
        return nil
    }
}
