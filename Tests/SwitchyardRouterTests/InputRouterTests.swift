import Foundation
import HTTPTypes
import Testing

/// Bad input is a 4xx with a stable code in the error envelope, never a 5xx, before any provider call.
@Suite struct InputRouterTests {
    @Test func malformedBodiesGetStableCodes() async throws {
        let world = RouterWorld(bodyLimit: 2_048)
        try await world.test { client in
            let m = try await world.merchant(client)
            let cases: [(body: String, status: Int, code: String)] = [
                ("{\"amount\": 12", 400, "invalid_json"),
                (#"{"amount": 1, "amount": 2, "currency": "EUR"}"#, 400, "duplicate_key"),
                (
                    #"{"amount": "12", "currency": "EUR", "country": "FR", "method": "card", "reference": "r"}"#,
                    400, "invalid_amount"
                ),
                (#"{"currency": "EUR", "country": "FR", "method": "card", "reference": "r"}"#, 400, "missing_field"),
                ("{\"reference\": \"" + String(repeating: "x", count: 4_096) + "\"}", 413, "body_too_large"),
            ]
            for item in cases {
                let reply = try await client.send(.post, "/v1/payments", token: m.apiKey, body: Data(item.body.utf8))
                #expect(Int(reply.status.code) == item.status, "\(item.body.prefix(60)): \(reply.text)")
                #expect(reply.errorCode == item.code, "\(item.body.prefix(60)): \(reply.text)")
            }
            let form = try await client.send(
                .post, "/v1/payments", token: m.apiKey, body: Data("amount=1".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(form.status == .unsupportedMediaType && form.errorCode == "unsupported_media_type")
            #expect(world.gateway.calls.isEmpty)
        }
    }

    @Test func theErrorEnvelopeHasCodeMessageAndRequestIdOnly() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let reply = try await client.send(.get, "/v1/payments")
            #expect(reply.status == .unauthorized)
            #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(Set(reply.json.keys) == ["error"])
            let error = try #require(reply.json["error"] as? [String: Any])
            #expect(Set(error.keys) == ["code", "message", "request_id"])
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(error["request_id"] as? String == reply.headers[HTTPField.Name("X-Request-Id")!])
        }
    }
}
