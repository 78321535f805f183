import Foundation
import Testing

/// A client that hangs up in the middle of sending a request is no failure of the server: it is logged
/// as a closed request, with its duration, and counted as a 499, never as a 5xx.
@Suite(.serialized) struct ClientDisconnectTests {
    /// The requests to `POST /v1/payments` counted as 499, as 5xx, and as errors, in `/metrics`.
    static func paymentsMetrics(_ stack: TestStack) async throws
        -> (closed: Double, serverErrors: Double, errors: Double, text: String)
    {
        let metrics = try await stack.send(.GET, "/metrics", token: stack.operatorToken)
        let text = String(decoding: metrics.body, as: UTF8.self)
        let route = ["http_route": "/v1/payments", "http_request_method": "POST"]
        let byStatus = { (status: String) in
            ObservabilityEndToEndTests.sample(
                text, "http_server_requests_total", route.merging(["http_response_status_code": status]) { $1 })
        }
        let serverErrors = (500...599).map { byStatus(String($0)) }.reduce(0, +)
        let errors = ObservabilityEndToEndTests.sample(text, "http_server_request_errors_total", route)
        return (byStatus("499"), serverErrors, errors, text)
    }

    @Test func aClientHangingUpMidBodyIsLoggedAsSuchAndNotCountedAs5xx() async throws {
        let log = RecordedLog()
        try await TestStack.with(log: log) { stack in
            let merchant = try await stack.merchant()
            let port = try ServerBoundsTests.port(stack)
            let before = try await Self.paymentsMetrics(stack)
            let connection = try RawConnection(port: port)
            #expect(
                connection.send(
                    "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(merchant.apiKey)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"amount\": 12"))
            // The head is in and the route is reading the body when the client goes. Time is the subject:
            // the logged duration must cover the time the client kept the request open.
            try await Task.sleep(for: .milliseconds(300))
            connection.close()

            let closed = await log.first("client closed request")
            let line = try #require(closed, "\(log.lines.map { "\($0.message) \($0.metadata)" })")
            #expect(line.metadata["http.route"] == "/v1/payments")
            #expect(line.metadata["http.status"] == "499")
            let duration = try #require(line.metadata["http.duration_ms"].flatMap { Int($0) })
            #expect(duration >= 250 && duration < 5_000)
            #expect(!log.lines.contains { $0.message == "request failed" })

            let after = try await Self.paymentsMetrics(stack)
            #expect(after.closed == before.closed + 1, "\(after.text)")
            #expect(after.serverErrors == before.serverErrors, "\(after.text)")
            #expect(after.errors == before.errors)
        }
    }
}
