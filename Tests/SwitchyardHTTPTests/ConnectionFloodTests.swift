import Foundation
import TestWaiting
import Testing

/// A slowloris client (thousands of connections that never finish a request head) from one address
/// cannot shut other clients out: its address gets at most `max_connections_per_address` connections,
/// below the global cap, so another address keeps being answered.
@Suite(.serialized) struct ConnectionFloodTests {
    static let perAddress = 64
    static let attackers = 2_000
    /// The start of a request head that never ends.
    static let partialHead = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "

    /// Whether a good client from 127.0.0.1 gets `/health` on a new connection, `/ready` and an authenticated
    /// request answered, each within `bound`.
    static func goodClientServed(_ stack: TestStack, port: Int, apiKey: String, bound: Duration) async throws -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        let health = await ServerBoundsTests.healthOnNewConnection(port)
        let healthTime = clock.now - start
        let ready = try await stack.send(.GET, "/ready")
        let readyTime = clock.now - start - healthTime
        let lookup = try await stack.send(.GET, "/v1/payments/pay_missing", token: apiKey)
        let lookupTime = clock.now - start - healthTime - readyTime
        return health && healthTime < bound && ready.status == 200 && readyTime < bound && lookup.status == 404
            && lookupTime < bound
    }

    @Test func aSlowlorisFromOneAddressIsCappedWhileAnotherAddressIsServed() async throws {
        RawConnection.raiseOpenFileLimit(to: 16_384)
        try await TestStack.with(policy: {
            // A global cap far below the attack, and timeouts beyond the test: only the cap per address
            // stands between the attacker and the whole server.
            $0.server.maxConnections = 200
            $0.server.maxConnectionsPerAddress = Self.perAddress
            $0.server.requestHeadTimeoutMs = 300_000
            $0.server.idleTimeoutMs = 300_000
        }) { stack in
            let port = try ServerBoundsTests.port(stack)
            let merchant = try await stack.merchant()
            let clock = ContinuousClock()
            let start = clock.now
            let finished = Flag()
            let attack = Task {
                await RawConnection.offThread { () -> [RawConnection] in
                    defer { finished.set() }
                    return (0..<Self.attackers).compactMap { _ in
                        guard let connection = try? RawConnection(port: port, from: "127.0.0.2") else { return nil }
                        connection.send(Self.partialHead)
                        return connection
                    }
                }
            }
            // While the attacker connects, the good client keeps being answered.
            var rounds = 0
            while !finished.isSet && clock.now - start < .seconds(120) {
                #expect(try await Self.goodClientServed(stack, port: port, apiKey: merchant.apiKey, bound: .seconds(5)))
                rounds += 1
                // Time is the subject: a well-behaved client's pace (back to back, it would be a flood too).
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(rounds > 0)
            let connections = await attack.value
            #expect(connections.count > Self.perAddress, "the attacker could not even connect")
            #expect(clock.now - start < .seconds(120))

            // The refused connections are closed by the server; exactly the cap's worth are held.
            var open = connections.count
            try await Poll.holds("the refused connections closed", within: .seconds(20), every: .milliseconds(200)) {
                open = connections.filter { !$0.isClosedByPeer }.count
                return open <= Self.perAddress
            }
            #expect(open == Self.perAddress, "attacker connections left open: \(open)")
            // The attacker is still at its cap: a further connection from its address is closed at once,
            // while the good client is answered.
            let more = try RawConnection(port: port, from: "127.0.0.2")
            #expect(await RawConnection.offThread { more.waitForClose(timeout: 5) })
            #expect(try await Self.goodClientServed(stack, port: port, apiKey: merchant.apiKey, bound: .seconds(5)))
            for connection in connections { connection.close() }
        }
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
