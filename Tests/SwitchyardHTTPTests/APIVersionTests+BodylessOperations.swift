import Foundation
import Testing

/// The operations that take no body at all (a payment's or payment method's sync, an endpoint's test ping,
/// stopping a rollout): in the new version a body with a field is `400 unknown_parameter` naming the first
/// field, while no body, an empty one or `{}` pass; the old version ignores any body.
extension APIVersionTests {
    @Test func bodylessOperationsRefuseFieldsInTheNewVersionOnly() async throws {
        try await TestStack.with(policy: { $0.webhooks.allowHosts = ["127.0.0.1"] }) { stack in
            let m = try await stack.merchant()
            let payment = try #require(try await stack.createPayment(m, Self.payment)["id"] as? String)
            let endpoint = try await stack.send(
                .POST, "/v1/webhook-endpoints", token: m.apiKey,
                json: ["url": "http://127.0.0.1:9/h", "event_types": ["*"]])
            let endpointId = try #require(endpoint.json["id"] as? String, "\(endpoint.status)")
            // What each answers to an acceptable body: the payment method and the rollout do not exist.
            let cases: [(path: String, status: Int)] = [
                ("/v1/payments/\(payment)/sync", 200),
                ("/v1/customers/c1/payment-methods/pm_none/sync", 404),
                ("/v1/webhook-endpoints/\(endpointId)/test", 202),
                ("/v1/routing/rollout/stop", 404),
            ]
            let fields: [String: Any] = ["zeta": 1, "force": true]
            for (path, status) in cases {
                let refused = try await stack.send(.POST, path, token: m.apiKey, json: fields)
                #expect(refused.status == 400 && refused.errorCode == "unknown_parameter", "\(path): \(refused.status)")
                #expect(Self.param(refused) == "force", "\(path): \(String(decoding: refused.body, as: UTF8.self))")

                let old = try await stack.send(
                    .POST, path, token: m.apiKey, json: fields, headers: ["Switchyard-Version": Self.old])
                #expect(old.status == status, "\(path) in the old version: \(old.status)")
                for body in [nil, Data(), Data("{}".utf8)] {
                    let accepted = try await stack.send(.POST, path, token: m.apiKey, raw: body)
                    #expect(accepted.status == status, "\(path) with \(body.map { "\($0.count) bytes" } ?? "no body")")
                }
            }
        }
    }
}
