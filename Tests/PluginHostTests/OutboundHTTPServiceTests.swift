import Foundation
import Logging
import NIOPosix
import PluginHost
import ProviderKit
import Testing

@Suite("OutboundHTTPService")
struct OutboundHTTPServiceTests {
    /// Runs `body` with a service whose client is shut down afterwards.
    private func withService(
        defaultTimeout: Duration = .seconds(5), logger: Logger = .quiet,
        _ body: (OutboundHTTPService) async throws -> Void
    ) async throws {
        let service = OutboundHTTPService(
            defaultTimeout: defaultTimeout, connectTimeout: .seconds(2), logger: logger,
            clock: { Date(timeIntervalSince1970: 1_700_000_000) }
        )
        do {
            try await body(service)
        } catch {
            try await service.shutdown()
            throw error
        }
        try await service.shutdown()
    }

    @Test func refusedConnectionIsNotSent() async throws {
        try await withService { service in
            let port = RawTCPServer.closedPort()
            let clock = ContinuousClock()
            let started = clock.now
            let result = await service.send(
                OutboundRequest(method: "POST", url: "http://127.0.0.1:\(port)/v1/charges", body: Data("{}".utf8)))
            #expect(result.kind == .notSent)
            #expect(result.reason == "connection refused")
            #expect(clock.now - started < .seconds(2))
        }
    }

    @Test func aHugeTimeoutFromAPluginIsCappedNotOverflowed() async throws {
        try await withService { service in
            let port = RawTCPServer.closedPort()
            for timeoutMs in [Int.max, Int.max / 1000, Int.min] {
                let result = await service.send(
                    OutboundRequest(method: "GET", url: "http://127.0.0.1:\(port)/v1/status", timeoutMs: timeoutMs))
                #expect(result.kind == .notSent)
            }
        }
    }

    @Test func deadlineWhileConnectingIsNotSent() async throws {
        let (port, close) = RawTCPServer.saturatedListener()
        defer { close() }
        try await withService { service in
            let clock = ContinuousClock()
            let started = clock.now
            let result = await service.send(
                OutboundRequest(method: "POST", url: "http://127.0.0.1:\(port)/v1/charges", timeoutMs: 400))
            #expect(result.kind == .notSent)
            #expect(result.reason == "deadline exceeded before connecting")
            // The request's own deadline ends the wait, well before the 2 s connect timeout.
            #expect(clock.now - started < .milliseconds(1500))
        }
    }

    @Test func silentServerTimesOutAsNoResponse() async throws {
        let server = try RawTCPServer(.silent)
        defer { server.stop() }
        try await withService { service in
            let clock = ContinuousClock()
            let started = clock.now
            let result = await service.send(
                OutboundRequest(
                    method: "POST", url: "http://127.0.0.1:\(server.port)/v1/charges", body: Data("{}".utf8),
                    timeoutMs: 300)
            )
            #expect(result.kind == .noResponse)
            #expect(result.reason == "deadline exceeded after sending")
            let elapsed = clock.now - started
            #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(4))
            #expect(server.requests.first?.hasPrefix("POST /v1/charges HTTP/1.1") == true)
        }
    }

    @Test func defaultTimeoutApplies() async throws {
        let server = try RawTCPServer(.silent)
        defer { server.stop() }
        try await withService(defaultTimeout: .milliseconds(300)) { service in
            let clock = ContinuousClock()
            let started = clock.now
            let result = await service.send(OutboundRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/ping"))
            #expect(result.kind == .noResponse)
            #expect(clock.now - started < .seconds(4))
        }
    }

    @Test func closeAfterReadingIsNoResponse() async throws {
        let server = try RawTCPServer(.closeAfterRead)
        defer { server.stop() }
        try await withService { service in
            let result = await service.send(
                OutboundRequest(
                    method: "POST", url: "http://127.0.0.1:\(server.port)/v1/refunds", body: Data("{}".utf8))
            )
            #expect(result.kind == .noResponse)
            #expect(result.reason == "connection closed before a complete response")
            #expect(server.requests.count == 1)
        }
    }

    @Test func unresolvableHostIsNotSent() async throws {
        try await withService { service in
            let result = await service.send(
                OutboundRequest(method: "GET", url: "http://switchyard-test.invalid/x", timeoutMs: 3000))
            #expect(result.kind == .notSent)
            // Without a resolver the lookup may time out instead of failing: still not sent.
            #expect(
                result.reason == "DNS failure" || result.reason == "connect timeout"
                    || result.reason == "deadline exceeded before connecting")
        }
    }

    @Test func invalidRequestsAreNotSent() async throws {
        try await withService { service in
            #expect(await service.send(OutboundRequest(method: "GET", url: "not a url")).kind == .notSent)
            #expect(await service.send(OutboundRequest(method: "GE T", url: "http://127.0.0.1:1/")).kind == .notSent)
            let server = try RawTCPServer(.respond("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
            defer { server.stop() }
            let injected = OutboundRequest(
                method: "GET", url: "http://127.0.0.1:\(server.port)/",
                headers: [HTTPHeader("X-A", "v\r\nX-Injected: 1")]
            )
            let result = await service.send(injected)
            #expect(result.kind == .notSent)
            #expect(result.reason?.contains("X-Injected") == false)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func responseIsReturnedWithStatusHeadersAndBody() async throws {
        let response =
            "HTTP/1.1 402 Payment Required\r\nContent-Type: application/json\r\nX-Trace: t-1\r\n"
            + "Content-Length: 15\r\nConnection: close\r\n\r\n{\"code\":\"4100\"}"
        let server = try RawTCPServer(.respond(response))
        defer { server.stop() }
        try await withService { service in
            let result = await service.send(
                OutboundRequest(
                    method: "post", url: "http://127.0.0.1:\(server.port)/v1/charges?x=1",
                    headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Idempotency-Key", "idem-7")],
                    body: Data(#"{"amount":1250}"#.utf8)
                )
            )
            #expect(result.kind == .response)
            #expect(result.status == 402)
            #expect(result.header("x-trace") == "t-1")
            #expect(result.body == Data(#"{"code":"4100"}"#.utf8))
            let received = try #require(server.requests.first)
            #expect(received.hasPrefix("POST /v1/charges?x=1 HTTP/1.1\r\n"))
            #expect(received.contains("Idempotency-Key: idem-7\r\n"))
            #expect(received.hasSuffix(#"{"amount":1250}"#))
        }
    }

    @Test func sequentialExchangesWithOneHostReuseOneConnection() async throws {
        let server = try RawTCPServer(.keepAlive("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        defer { server.stop() }
        try await withService { service in
            for index in 0..<3 {
                let result = await service.send(
                    OutboundRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/ping/\(index)"))
                #expect(result.kind == .response)
                #expect(result.body == Data("ok".utf8))
            }
            #expect(server.accepted == 1)
            #expect(server.requests.count == 3)
        }
    }

    @Test func exchangesServedOnAPluginsLoopKeepTheirConnectionsForTheNextOnes() async throws {
        let server = try RawTCPServer(.keepAlive("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
        defer { server.stop() }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        try await withService { service in
            // Three rounds of four concurrent exchanges, each bound to the loop as a plugin's request is.
            for round in 0..<3 {
                let kinds = await withTaskGroup(of: OutboundResult.Kind.self) { group in
                    for index in 0..<4 {
                        group.addTask {
                            await PluginTaskContext.$eventLoop.withValue(loop) {
                                await service.send(
                                    OutboundRequest(
                                        method: "GET", url: "http://127.0.0.1:\(server.port)/ping/\(round)/\(index)")
                                ).kind
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(kinds == Array(repeating: .response, count: 4))
            }
            #expect(server.requests.count == 12)
            // The first round may open a connection per exchange; the later rounds reuse them.
            #expect(server.accepted <= 4)
        }
    }

    @Test func exchangesAreLoggedWithoutSecretsOrBodies() async throws {
        let server = try RawTCPServer(
            .respond("HTTP/1.1 200 OK\r\nContent-Length: 11\r\nConnection: close\r\n\r\nresp-BODY-1"))
        defer { server.stop() }
        let capture = LogCapture()
        try await withService(logger: capture.logger()) { service in
            let result = await PluginTaskContext.$pluginID.withValue("citcon") {
                await service.send(
                    OutboundRequest(
                        method: "POST", url: "http://127.0.0.1:\(server.port)/v1/access-tokens?sig=QUERY-SECRET",
                        headers: [
                            HTTPHeader("Authorization", "Bearer AUTH-SECRET"), HTTPHeader("X-Api-Key", "KEY-SECRET"),
                            HTTPHeader("X-Merchant", "MERCHANT-SECRET"), HTTPHeader("Accept", "application/json"),
                        ],
                        body: Data("req-BODY-1".utf8), redactHeaders: ["x-merchant"]
                    )
                )
            }
            #expect(result.status == 200)
        }
        let exchange = try #require(capture.records.first { $0.message == "provider exchange" })
        #expect(exchange.level == .debug)
        #expect(exchange.metadata["http.method"] == "POST")
        #expect(exchange.metadata["http.host"] == "127.0.0.1")
        #expect(exchange.metadata["http.path"] == "/v1/access-tokens")
        #expect(exchange.metadata["http.status"] == "200")
        #expect(exchange.metadata["http.duration_ms"] != nil)
        #expect(exchange.metadata["plugin.id"] == "citcon")
        let text = capture.allText
        #expect(text.contains("Accept: application/json"))
        for secret in ["AUTH-SECRET", "KEY-SECRET", "MERCHANT-SECRET", "QUERY-SECRET", "req-BODY-1", "resp-BODY-1"] {
            #expect(!text.contains(secret), "\(secret) was logged")
        }
    }

    @Test func pluginLogsGoToTheLoggerWithRedactedMetadata() async throws {
        let capture = LogCapture()
        try await withService(logger: capture.logger()) { service in
            service.log(
                .warning, "token refresh",
                metadata: ["plugin.id": "citcon", "access_token": "TOKEN-SECRET", "attempt": "2"])
            #expect(service.now() == Date(timeIntervalSince1970: 1_700_000_000))
        }
        let record = try #require(capture.records.first)
        #expect(record.level == .warning)
        #expect(record.message == "token refresh")
        #expect(record.metadata == ["plugin.id": "citcon", "access_token": "[redacted]", "attempt": "2"])
    }

    @Test func sendAfterShutdownIsNotSent() async throws {
        let service = OutboundHTTPService(logger: .quiet)
        try await service.shutdown()
        let result = await service.send(OutboundRequest(method: "GET", url: "http://127.0.0.1:1/"))
        #expect(result.kind == .notSent)
    }
}
