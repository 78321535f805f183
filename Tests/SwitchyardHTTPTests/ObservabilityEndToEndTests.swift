import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwitchyardCluster
import SwitchyardStore
import TestWaiting
import Testing

/// `switchyard serve` as an operator watches it: `/metrics` after a card payment and a refund, the JSON
/// log of that payment (without any secret), and its trace under the caller's `traceparent`.
@Suite(.serialized)
struct ObservabilityEndToEndTests {
    struct Answer {
        var status: Int
        var body: String
        var json: [String: Any] {
            ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:]
        }
    }

    static func call(
        _ method: HTTPMethod, _ url: String, token: String? = nil, headers: [String: String] = [:], json: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 8 << 20)
        return Answer(status: Int(response.status.code), body: String(buffer: body))
    }

    /// The sum of the samples of `name` whose labels contain every pair of `labels`.
    static func sample(_ text: String, _ name: String, _ labels: [String: String] = [:]) -> Double {
        var total = 0.0
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            let head = line.split(separator: " ").dropLast().joined(separator: " ")
            guard labels.allSatisfy({ head.contains("\($0.key)=\"\($0.value)\"") }) else { continue }
            total += Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return total
    }

    @Test func aCardPaymentIsMeasuredLoggedAndTracedWithoutSecrets() async throws {
        let root = try EmbeddedDefaultTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await OTLPReceiver.with { receiver in
            let data = root + "/data"
            let port = PostgresCluster.freePort()
            let metricsPort = PostgresCluster.freePort()
            let server = try ServeProcess(
                arguments: [
                    "--data-dir", data, "--kek-file", root + "/kek", "--port", "\(port)", "--log-format", "json",
                    "--metrics-port",
                    "\(metricsPort)",
                ],
                directory: root,
                environment: [
                    "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                    "OTEL_BSP_SCHEDULE_DELAY": "100", "LOG_LEVEL": "debug",
                ])
            defer { server.stopNow() }
            // The demo file the server writes once set up is its only word of being ready.
            try await Poll.holds("the demo file", within: .seconds(180), every: .milliseconds(200)) {
                FileManager.default.fileExists(atPath: data + "/demo.json") || !server.process.isRunning
            }
            let demoData = try #require(FileManager.default.contents(atPath: data + "/demo.json"), "\(server.output)")
            let demo = try #require(try JSONSerialization.jsonObject(with: demoData) as? [String: Any])
            let key = try #require(demo["api_key"] as? String)
            let operatorToken = try #require(demo["operator_token"] as? String)
            let sandbox = try #require(demo["sandbox_url"] as? String)
            let base = "http://127.0.0.1:\(port)"

            // /metrics is the operator's: no token or a tenant's key is a 401.
            #expect(try await Self.call(.GET, base + "/metrics").status == 401)
            #expect(try await Self.call(.GET, base + "/metrics", token: key).status == 401)
            let before = try await Self.call(.GET, base + "/metrics", token: operatorToken)
            #expect(before.status == 200)

            // A Worldline Direct card payment under the caller's trace, completed with an encrypted card.
            let traceId = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: 1...UInt32.max)) }.joined()
            let traceparent = "00-\(traceId)-00f067aa0ba902b7-01"
            let pan = "4012000033330026"
            let cvv = "9731"
            let created = try await Self.call(
                .POST, base + "/v1/payments", token: key, headers: ["traceparent": traceparent],
                json: """
                    {"amount": 4200, "currency": "EUR", "country": "DE", "method": "card", "reference": "obs-1",
                     "return_url": "https://shop.example/return"}
                    """)
            #expect(created.status == 201, "\(created.body)")
            let payment = try #require(created.json["id"] as? String)
            let session = try #require((created.json["next_action"] as? [String: Any])?["data"] as? [String: Any])
            let input = try JSONSerialization.data(withJSONObject: [
                "clientSessionId": session["clientSessionId"] ?? "", "customerId": session["customerId"] ?? "",
                "cardNumber": pan, "expiryDate": "1230", "cvv": cvv, "cardholderName": "Demo Shopper",
            ])
            let encrypted = try await Self.call(
                .POST, sandbox + "/_sandbox/worldline-direct/encrypt", json: String(decoding: input, as: UTF8.self))
            let jwe = try #require(encrypted.json["encryptedCustomerInput"] as? String, "\(encrypted.body)")
            let completed = try await Self.call(
                .POST, base + "/v1/payments/\(payment)/complete", token: key,
                json: "{\"payment_data\": {\"encrypted_customer_input\": \"\(jwe)\"}}")
            #expect(completed.json["status"] as? String == "succeeded", "\(completed.body)")
            let refund = try await Self.call(
                .POST, base + "/v1/payments/\(payment)/refunds", token: key, json: "{\"amount\": 1000}")
            #expect(refund.status == 201, "\(refund.body)")
            // A Citcon payment: its plugin fetches an access token first.
            let alipay = try await Self.call(
                .POST, base + "/v1/payments", token: key,
                json: """
                    {"amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "obs-2"}
                    """)
            #expect(alipay.status == 201, "\(alipay.body)")
            let citconTokens = (alipay.json["next_action"] as? [String: Any])?["data"] as? [String: Any] ?? [:]
            let clientToken = try #require(citconTokens["client_token"] as? String, "\(alipay.body)")

            // The counters moved.
            let after = try await Self.call(.GET, base + "/metrics", token: operatorToken)
            let created1 = ["plugin": "worldline-direct"]
            #expect(
                Self.sample(after.body, "switchyard_payments_created_total", created1)
                    == Self.sample(before.body, "switchyard_payments_created_total", created1) + 1, "\(after.body)")
            let finished = ["method": "card", "status": "succeeded"]
            #expect(
                Self.sample(after.body, "switchyard_payments_finished_total", finished)
                    == Self.sample(before.body, "switchyard_payments_finished_total", finished) + 1)
            #expect(
                Self.sample(after.body, "switchyard_refunds_total")
                    == Self.sample(before.body, "switchyard_refunds_total") + 1)
            for flow in ["complete", "refund"] {
                let labels = ["plugin": "worldline-direct", "flow": flow]
                #expect(
                    Self.sample(after.body, "switchyard_provider_call_duration_seconds_count", labels)
                        > Self.sample(before.body, "switchyard_provider_call_duration_seconds_count", labels), "\(flow)"
                )
            }
            #expect(
                Self.sample(
                    after.body, "http_server_request_duration_seconds_count",
                    ["http_route": "/v1/payments", "http_response_status_code": "201"])
                    >= 1, "\(after.body)")
            #expect(after.body.contains("switchyard_db_pool_wait_seconds_count"))
            // The pool's gauges: the request that rendered the page held a connection, so none is waiting.
            #expect(after.body.contains("switchyard_db_pool_connections_in_use "), "\(after.body)")
            #expect(Self.sample(after.body, "switchyard_db_pool_waiting") == 0, "\(after.body)")
            #expect(after.body.contains("switchyard_janitor_unknown_payments"))
            #expect(after.body.contains("switchyard_plugin_loads_total{plugin=\"worldline-direct\"}"))
            let fetched = ["plugin": "citcon", "result": "ok"]
            #expect(
                Self.sample(after.body, "switchyard_access_token_fetches_total", fetched)
                    > Self.sample(before.body, "switchyard_access_token_fetches_total", fetched))
            // The separate metrics listener answers without a token.
            let separate = try await Self.call(.GET, "http://127.0.0.1:\(metricsPort)/metrics")
            #expect(separate.status == 200)
            #expect(separate.body.contains("switchyard_payments_created_total"))

            // The trace: the request, the provider call and database transactions under the caller's trace id.
            let spans = try await receiver.wait(trace: traceId) { spans in
                spans.contains { $0.name == "provider.call" } && spans.contains { $0.name == "db.transaction" }
                    && spans.contains { $0.name.contains("/v1/payments") }
            }
            #expect(spans.contains { $0.name.contains("/v1/payments") }, "\(receiver.received.map(\.name))")
            let providerCall = spans.first { $0.name == "provider.call" }
            #expect(providerCall?.attributes["plugin"] == "worldline-direct", "\(spans)")
            #expect(providerCall?.attributes["flow"] != nil)
            #expect(providerCall?.attributes["outcome"] != nil)
            #expect(spans.contains { $0.name == "db.transaction" })

            // The log: one JSON object per line, with request ids, and no secret anywhere.
            server.stopNow()
            let lines = server.output.split(separator: "\n").map(String.init)
            let objects = lines.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            #expect(!objects.isEmpty && objects.count == lines.count, "\(lines.filter { !$0.hasPrefix("{") })")
            #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String })
            #expect(objects.contains { $0["request.id"] != nil && $0["trace.id"] as? String == traceId })
            var secrets = [key, operatorToken, pan, jwe, clientToken]
            for file in [
                "sandbox-worldline-secret-api-key", "sandbox-worldline-webhook-secret", "sandbox-citcon-ipn-secret",
            ] {
                let secret = try String(contentsOfFile: data + "/" + file, encoding: .utf8)
                secrets.append(secret.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            for secret in secrets {
                #expect(!server.output.contains(secret), "a secret (\(secret.prefix(4))…) is in the log")
            }
            // Every token the Citcon sandbox issues (the server's access token included) starts with `UPI_`.
            #expect(clientToken.hasPrefix("UPI_"))
            #expect(!server.output.contains("UPI_"))
            #expect(!server.output.lowercased().contains("\"cvv\""))
            #expect(!server.output.contains(cvv))
        }
    }
}
