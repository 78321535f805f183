import Foundation
import NIOHTTP1
import SwitchyardTestSupport
import Testing

/// The server's own bounds: idle and slow connections are closed, and only so many are served at once.
@Suite(.serialized) struct ServerBoundsTests {
    static func port(_ stack: TestStack) throws -> Int {
        try #require(stack.baseURL.split(separator: ":").last.flatMap { Int($0) })
    }

    static let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Whether `/health` answers 200 on a new connection within ten seconds.
    static func healthOnNewConnection(_ port: Int) async -> Bool {
        guard let connection = try? RawConnection(port: port) else { return false }
        return await RawConnection.offThread {
            connection.send(health)
            if case .data(let text) = connection.readResponse(timeout: 10) { return text.hasPrefix("HTTP/1.1 200") }
            return false
        }
    }

    @Test func idleAndSlowClientsAreDisconnectedWhileHealthStaysFast() async throws {
        try await TestStack.with(policy: {
            $0.server.idleTimeoutMs = 1_000
            $0.server.requestReadTimeoutMs = 1_000
        }) { stack in
            let port = try Self.port(stack)
            let idle = try (0..<50).map { _ in try RawConnection(port: port) }
            // A request head that never ends, one byte every 200 ms; and a body sent the same way after a
            // whole head, to a route that reads its body first.
            let slowHead = try RawConnection(port: port)
            let slowBody = try RawConnection(port: port)
            #expect(slowHead.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))
            #expect(
                slowBody.send(
                    "POST /notifications/\(UUID().uuidString) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Length: 1000\r\n\r\n"))
            let trickle = Task {
                for _ in 0..<200 where !Task.isCancelled {
                    _ = slowHead.send("a")
                    _ = slowBody.send("{")
                    // Time is the subject: a slow client's pace.
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            defer { trickle.cancel() }

            let clock = ContinuousClock()
            let start = clock.now
            // Fresh connections for the health checks: the test client's pooled ones are closed when idle.
            let health = await Self.healthOnNewConnection(port)
            #expect(health)
            #expect(clock.now - start < .seconds(5))

            let closed = await RawConnection.offThread { () -> [Bool] in
                // One deadline for all: a connection left open fails the test within ten seconds.
                let deadline = Date().addingTimeInterval(10)
                return (idle + [slowHead, slowBody]).map { $0.waitForClose(timeout: deadline.timeIntervalSinceNow) }
            }
            #expect(closed.allSatisfy { $0 }, "closed: \(closed.filter { $0 }.count) of \(closed.count)")
            #expect(clock.now - start < .seconds(15))
            #expect(await Self.healthOnNewConnection(port))
        }
    }

    @Test func aConnectionMustSendItsRequestHeadInTimeButMayStayIdleBetweenRequests() async throws {
        try await TestStack.with(policy: {
            $0.server.requestHeadTimeoutMs = 1_000
            $0.server.idleTimeoutMs = 20_000
            $0.server.requestReadTimeoutMs = 20_000
        }) { stack in
            let port = try Self.port(stack)
            let silent = try RawConnection(port: port)
            let slowHead = try RawConnection(port: port)
            let keptAlive = try RawConnection(port: port)
            #expect(slowHead.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
            let answers = await RawConnection.offThread { () -> [Bool] in
                let ok = { (connection: RawConnection) -> Bool in
                    guard case .data(let text) = connection.readResponse(timeout: 10) else { return false }
                    return text.hasPrefix("HTTP/1.1")
                }
                // A kept-alive connection idle past the head timeout between two requests is still served.
                keptAlive.send(Self.health)
                let first = ok(keptAlive)
                // Time is the subject: idle past the head timeout, then the second request.
                Thread.sleep(forTimeInterval: 1.5)
                keptAlive.send(Self.health)
                let second = ok(keptAlive)
                // Once its head is in, a request's body may take longer than the head timeout.
                guard let slowBody = try? RawConnection(port: port) else { return [first, second, false] }
                slowBody.send(
                    "POST /notifications/\(UUID().uuidString) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Length: 4\r\n\r\n")
                for byte in ["{", "}", " ", " "] {
                    // Time is the subject: a body slower in all than the head timeout.
                    Thread.sleep(forTimeInterval: 0.5)
                    slowBody.send(byte)
                }
                return [first, second, ok(slowBody)]
            }
            #expect(answers == [true, true, true])
            let closed = await RawConnection.offThread {
                [silent.waitForClose(timeout: 1), slowHead.waitForClose(timeout: 1)]
            }
            #expect(closed == [true, true], "the silent and slow-head connections should be closed by now")
        }
    }

    @Test func beyondTheConnectionCapNewConnectionsWaitWhileOpenOnesAreServed() async throws {
        try await TestStack.with(policy: {
            $0.server.maxConnections = 4
            $0.server.maxConnectionsPerAddress = 1
        }) { stack in
            let port = try Self.port(stack)
            // From four addresses: one address alone may not hold as many as the cap.
            let held = try (1...4).map { try RawConnection(port: port, from: "127.0.0.\($0)") }
            let answers = await RawConnection.offThread {
                held.map { connection -> Bool in
                    connection.send(Self.health)
                    if case .data(let text) = connection.readResponse(timeout: 10) {
                        return text.hasPrefix("HTTP/1.1 200")
                    }
                    return false
                }
            }
            #expect(answers == [true, true, true, true])

            let extra = try RawConnection(port: port, from: "127.0.0.5")
            let waiting = await RawConnection.offThread { () -> RawConnection.ReadResult in
                extra.send(Self.health)
                return extra.read(timeout: 1)
            }
            #expect(waiting == .timedOut, "a fifth connection was served while four were open")

            // Open connections keep working.
            let again = await RawConnection.offThread { () -> Bool in
                held[1].send(Self.health)
                if case .data(let text) = held[1].readResponse(timeout: 10) { return text.hasPrefix("HTTP/1.1 200") }
                return false
            }
            #expect(again)

            // Once one closes, the waiting connection is served.
            held[0].close()
            let served = await RawConnection.offThread { () -> Bool in
                if case .data(let text) = extra.readResponse(timeout: 10) { return text.hasPrefix("HTTP/1.1 200") }
                return false
            }
            #expect(served)
        }
    }

    @Test func aRequestFindingNoFreeDatabaseConnectionGets503DatabaseBusy() async throws {
        try await TestStack.with(policy: { $0.server.databaseAcquireTimeoutMs = 300 }) { stack in
            let m = try await stack.merchant()
            let squeeze = await PoolSqueeze(stack.runtime.pool)
            let busy = try await stack.send(.GET, "/v1/payments/pay_missing", token: m.apiKey)
            #expect(busy.status == 503)
            #expect(busy.errorCode == "database_busy")
            #expect(TenantLimitTests.header(busy, "Retry-After") == "1")

            try await squeeze.release()
            let served = try await stack.send(.GET, "/v1/payments/pay_missing", token: m.apiKey)
            #expect(served.status == 404)
        }
    }
}
