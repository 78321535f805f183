import Foundation
import Testing

@testable import SwitchyardCore

/// The `server` section's connection bounds.
struct ServerPolicyTests {
    @Test func theConnectionBoundsDecodeWithDefaults() throws {
        let defaults = try JSONDecoder().decode(PlatformPolicy.Server.self, from: Data("{}".utf8))
        #expect(defaults.maxConnections == 10_000)
        #expect(defaults.maxConnectionsPerAddress == 64)
        #expect(defaults.requestHeadTimeoutMs == 5_000)
        #expect(defaults.problem() == nil)

        let json = #"{"max_connections": 500, "max_connections_per_address": 20, "request_head_timeout_ms": 2000}"#
        let server = try JSONDecoder().decode(PlatformPolicy.Server.self, from: Data(json.utf8))
        #expect(server.maxConnections == 500)
        #expect(server.maxConnectionsPerAddress == 20)
        #expect(server.requestHeadTimeoutMs == 2_000)
        #expect(server.idleTimeoutMs == 30_000)
    }

    @Test func oneAddressMayNotBeAllowedToFillTheServer() {
        var server = PlatformPolicy.Server()
        server.maxConnections = 100
        server.maxConnectionsPerAddress = 100
        #expect(server.problem()?.contains("max_connections_per_address") == true)
        server.maxConnectionsPerAddress = 99
        #expect(server.problem() == nil)
        server.maxConnectionsPerAddress = 0
        #expect(server.problem() != nil)
        server.maxConnectionsPerAddress = 10
        server.requestHeadTimeoutMs = 0
        #expect(server.problem() != nil)
    }
}
