import Foundation
import Testing

@testable import SwitchyardCore

/// Which addresses webhooks may reach, in every spelling a tenant could try.
struct EgressAddressTests {
    func block(_ text: String) throws -> EgressAddress.Block? {
        EgressAddress.block(try #require(IPAddress(text), "\(text) parses"))
    }

    @Test func ipv4SpellingsMeanWhatTheResolverReadsThemAs() {
        let loopback = IPAddress.v4(0x7F00_0001)
        for spelling in [
            "127.0.0.1", "2130706433", "0x7f000001", "0x7f.1", "127.1", "0177.0.0.1", "0177.0.0.01", "127.0.1",
            "0x7F.0.0.1", "127.0.0.1.",
        ] {
            #expect(IPAddress(spelling) == loopback, "\(spelling)")
        }
        #expect(IPAddress("169.254.43518") == .v4(0xA9FE_A9FE), "the metadata address in three parts")
        #expect(IPAddress("0") == .v4(0))
        for invalid in ["256.0.0.1", "1.2.3.4.5", "1.2.3.256", "08.0.0.1", "1..2.3", "", "1.2.3.4x", "4294967296"] {
            #expect(IPAddress(invalid) == nil, "\(invalid)")
        }
        #expect(IPAddress("1.2.3.4")?.description == "1.2.3.4")
        #expect(IPAddress("[::ffff:127.0.0.1]") == IPAddress("::ffff:7f00:1"))
        #expect(IPAddress("fe80::1%eth0") == nil, "zone ids are refused")
        #expect(IPAddress.looksLikeIPv4("2130706433"))
        #expect(IPAddress.looksLikeIPv4("foo.0x7f"))
        #expect(IPAddress.looksLikeIPv4("a.b.1."))
        #expect(!IPAddress.looksLikeIPv4("shop.example"))
        #expect(!IPAddress.looksLikeIPv4("1.2.3.example"))
    }

    @Test func everyNonPublicIPv4RangeIsRefused() throws {
        let refused: [(String, EgressAddress.Block)] = [
            ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("127.0.0.1", .loopback),
            ("127.255.255.254", .loopback), ("10.0.0.1", .private), ("10.255.255.255", .private),
            ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
            ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal), ("100.64.0.1", .sharedAddressSpace),
            ("100.127.255.255", .sharedAddressSpace), ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
            ("255.255.255.255", .broadcast), ("240.0.0.1", .reserved), ("192.0.0.8", .reserved),
            ("192.0.2.1", .documentation), ("198.51.100.7", .documentation), ("203.0.113.9", .documentation),
            ("198.18.0.1", .benchmarking), ("198.19.255.255", .benchmarking), ("192.88.99.1", .reserved),
            ("2130706433", .loopback), ("0x7f.1", .loopback), ("127.1", .loopback), ("0xa9fea9fe", .linkLocal),
            ("012.0.0.1", .private),
        ]
        for (text, expected) in refused {
            #expect(try block(text) == expected, "\(text)")
        }
        for allowed in [
            "1.1.1.1", "8.8.8.8", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255",
            "100.128.0.1", "192.169.0.1", "198.20.0.1", "169.253.255.255", "223.255.255.255",
        ] {
            #expect(try block(allowed) == nil, "\(allowed)")
        }
    }

    @Test func ipv6RangesAndEmbeddedIPv4AreRefused() throws {
        let refused: [(String, EgressAddress.Block)] = [
            ("::", .unspecified), ("::1", .loopback), ("[::1]", .loopback), ("fc00::1", .private),
            ("fd12:3456::1", .private), ("fe80::1", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .private),
            ("ff02::1", .multicast), ("ff0e::1", .multicast), ("2001:db8::1", .documentation),
            ("3fff::1", .documentation), ("2001:2::1", .benchmarking),
            // IPv4-mapped, -compatible and SIIT forms are what they embed.
            ("::ffff:127.0.0.1", .loopback), ("::ffff:7f00:1", .loopback), ("::ffff:169.254.169.254", .linkLocal),
            ("::ffff:10.0.0.1", .private), ("::127.0.0.1", .loopback), ("::ffff:0:127.0.0.1", .loopback),
            ("::ffff:8.8.8.8", .reserved), ("::8.8.8.8", .reserved),
            // NAT64 reaches the embedded address.
            ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b:1::1", .private),
            // 6to4 embeds an IPv4 address; Teredo and other protocol assignments.
            ("2002:7f00:1::1", .loopback), ("2002:a00:1::", .private), ("2002:808:808::1", .reserved),
            ("2001::1", .reserved), ("2001:0:4136:e378::1", .reserved),
            // Outside global unicast 2000::/3.
            ("100::1", .reserved), ("5f00::1", .reserved), ("4000::1", .reserved),
        ]
        for (text, expected) in refused {
            #expect(try block(text) == expected, "\(text)")
        }
        for allowed in ["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "64:ff9b::8.8.8.8", "2400:cb00::1"] {
            #expect(try block(allowed) == nil, "\(allowed)")
        }
    }
}

/// The registration and delivery decisions over a resolver that answers from a table.
struct WebhookEgressTests {
    struct TableResolver: HostResolver {
        var table: [String: [String]]

        func resolve(_ host: String, timeout: Duration) async throws -> [IPAddress] {
            guard let answers = table[host] else { throw CancellationError() }
            return answers.compactMap(IPAddress.init)
        }
    }

    let resolver = TableResolver(table: [
        "shop.example": ["93.184.216.34", "2606:2800:220:1::1"],
        "inside.example": ["10.1.2.3"],
        "mixed.example": ["93.184.216.34", "169.254.169.254"],
        "mapped.example": ["::ffff:127.0.0.1"],
        "loop.example": ["127.0.0.1"],
    ])

    func egress(allow: [String] = [], requireHTTPS: Bool = true) -> WebhookEgress {
        var policy = PlatformPolicy.Webhooks()
        policy.allowHosts = allow
        policy.requireHTTPS = requireHTTPS
        return WebhookEgress(policy: policy, resolver: resolver)
    }

    func refusal(_ egress: WebhookEgress, _ url: String) async -> WebhookEgress.Refusal? {
        do {
            _ = try await egress.route(url, timeout: .seconds(1))
            return nil
        } catch {
            return error
        }
    }

    @Test func aNameIsPinnedToItsCheckedAddressOnlyWhenEveryAddressIsPublic() async throws {
        let egress = egress()
        #expect(try await egress.route("https://shop.example/hook", timeout: .seconds(1)) == .pinned(.v4(0x5DB8_D822)))
        #expect(try await egress.route("https://SHOP.example./hook", timeout: .seconds(1)) == .pinned(.v4(0x5DB8_D822)))
        #expect(await refusal(egress, "https://inside.example/hook") == .forbidden(.private))
        #expect(await refusal(egress, "https://mixed.example/hook") == .forbidden(.linkLocal), "one bad address")
        #expect(await refusal(egress, "https://mapped.example/hook") == .forbidden(.loopback))
        #expect(await refusal(egress, "https://nowhere.example/hook") == .unresolved)
        #expect(await refusal(egress, "https://localhost/hook") == .forbidden(.loopback))
        #expect(await refusal(egress, "https://api.localhost./hook") == .forbidden(.loopback))
    }

    @Test func literalAddressesInAnySpellingAreCheckedAsWhatTheyMean() async throws {
        let egress = egress()
        for url in [
            "https://127.0.0.1/", "https://2130706433/", "https://0x7f.1/", "https://127.1:8080/x",
            "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://[64:ff9b::7f00:1]/", "https://169.254.169.254/",
            "https://0.0.0.0/", "https://[::]/", "https://100.64.1.1/", "https://[fe80::1]/", "https://0177.0.0.1/",
        ] {
            guard case .forbidden = await refusal(egress, url) else {
                Issue.record("\(url) was not refused")
                continue
            }
        }
        #expect(try await egress.route("https://93.184.216.34/", timeout: .seconds(1)) == .pinned(.v4(0x5DB8_D822)))
        // A public address spelled unusually is refused rather than guessed at.
        #expect(
            await refusal(egress, "https://1572395042/") == .invalidURL("write an IPv4 address as four decimal numbers")
        )
        for url in ["https://1.2.3.999/", "https://%31%32%37.0.0.1/", "https://user:pw@shop.example/"] {
            guard case .invalidURL = await refusal(egress, url) else {
                Issue.record("\(url) was not refused as invalid")
                continue
            }
        }
    }

    @Test func httpsIsRequiredUnlessTheOperatorTrustsTheHost() async throws {
        #expect(await refusal(egress(), "http://shop.example/hook") == .invalidURL("url must use https"))
        #expect(try await egress(requireHTTPS: false).route("http://shop.example/", timeout: .seconds(1)) != .trusted)
        let trusting = egress(allow: ["127.0.0.1", "LocalHost", "[::1]"])
        #expect(try await trusting.route("http://127.0.0.1:9000/hook", timeout: .seconds(1)) == .trusted)
        #expect(try await trusting.route("http://localhost:9000/hook", timeout: .seconds(1)) == .trusted)
        #expect(try await trusting.route("http://[::1]:9000/hook", timeout: .seconds(1)) == .trusted)
        // A trusted literal also admits a name that resolves to it; other loopback addresses stay refused.
        #expect(try await trusting.route("https://loop.example/", timeout: .seconds(1)) == .pinned(.v4(0x7F00_0001)))
        #expect(await refusal(trusting, "http://127.0.0.2/") == .invalidURL("url must use https"))
        #expect(await refusal(trusting, "https://127.0.0.2/") == .forbidden(.loopback))
        #expect(await refusal(trusting, "https://inside.example/") == .forbidden(.private))
    }

    @Test func registrationAcceptsANameThatDoesNotResolveYetButNothingForbidden() async throws {
        let egress = egress()
        try await egress.checkRegistration("https://nowhere.example/hook", timeout: .seconds(1))
        do {
            try await egress.checkRegistration("https://inside.example/hook", timeout: .seconds(1))
            Issue.record("a private address was accepted")
        } catch {
            #expect(error.code == .endpointAddressForbidden)
            #expect(!error.message.contains("10.1.2.3"), "the address is not echoed")
        }
        do {
            try await egress.checkRegistration("http://shop.example/hook", timeout: .seconds(1))
            Issue.record("http was accepted")
        } catch {
            #expect(error.code == .invalidWebhookURL)
        }
    }

    @Test func theWebhookPolicyKeysDecodeWithSafeDefaults() throws {
        let defaults = try JSONDecoder().decode(PlatformPolicy.self, from: Data("{}".utf8)).webhooks
        #expect(defaults.requireHTTPS)
        #expect(defaults.allowHosts.isEmpty)
        #expect(defaults.maxEndpointsPerTenant == 16)
        #expect(defaults.replayLimit == 100 && defaults.replayWindowMs == 3_600_000)
        #expect(defaults.maxInFlightPerEndpoint == 2)
        #expect(defaults.maxInFlightPerTenant == 8)
        let json =
            #"{"webhooks":{"allow_hosts":["127.0.0.1"],"max_endpoints_per_tenant":2,"replay_limit":5,"#
            + #""replay_window_ms":1000,"max_in_flight_per_endpoint":1}}"#
        let set = try JSONDecoder().decode(PlatformPolicy.self, from: Data(json.utf8)).webhooks
        #expect(set.allowHosts == ["127.0.0.1"])
        #expect(set.maxEndpointsPerTenant == 2 && set.replayLimit == 5 && set.replayWindowMs == 1000)
        #expect(set.maxInFlightPerEndpoint == 1)
        var bad = PlatformPolicy.Webhooks()
        bad.maxInFlightPerEndpoint = 0
        #expect(bad.problem() != nil)
    }
}
