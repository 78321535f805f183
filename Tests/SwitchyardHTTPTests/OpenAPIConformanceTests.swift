import Foundation
import ProviderKit
import SwitchyardHTTP
import Testing

/// What the server answers matches the schemas the OpenAPI document gives for it, so the document's
/// schemas (and the examples checked against them) describe real responses.
@Suite(.serialized) struct OpenAPIConformanceTests {
    @Test func servedPaymentsRoutingAndErrorsMatchTheirDocumentedSchemas() async throws {
        try await TestStack.with { stack in
            let document = try JSONDecoder().decode(JSONValue.self, from: OpenAPIDocument.load())
            let validator = SchemaSubset(document: document)
            func check(_ reply: TestStack.Reply, _ schema: String, status: Int) throws {
                #expect(reply.status == status)
                let value = try JSONDecoder().decode(JSONValue.self, from: reply.body)
                let problems = validator.problems(value, .object(["$ref": .string("#/components/schemas/\(schema)")]))
                #expect(problems.isEmpty, "\(schema): \(problems) in \(String(decoding: reply.body, as: UTF8.self))")
            }
            let m = try await stack.merchant()
            let created = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "oas-1"])
            try check(created, "Payment", status: 201)
            let id = try #require(created.json["id"] as? String)
            try check(try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey), "Payment", status: 200)
            try check(try await stack.send(.GET, "/v1/payments?limit=1", token: m.apiKey), "PaymentList", status: 200)
            try check(try await stack.send(.GET, "/v1/routing", token: m.apiKey), "Routing", status: 200)
            try check(
                try await stack.send(
                    .GET, "/admin/v1/tenants/\(m.tenantId)/routing/versions", token: stack.operatorToken),
                "RoutingVersions", status: 200)
            try check(
                try await stack.send(
                    .POST, "/v1/routing/simulate", token: m.apiKey,
                    json: ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay"]),
                "RoutingSimulation", status: 200)
            try check(
                try await stack.send(
                    .POST, "/v1/payment-options", token: m.apiKey,
                    json: ["amount": 1234, "currency": "USD", "country": "US", "customer": "alice"]),
                "PaymentOptions", status: 200)
            try check(
                try await stack.send(
                    .POST, "/v1/payment-options", token: m.apiKey,
                    json: ["amount": 0, "currency": "USD", "country": "US"]),
                "Error", status: 400)
            try check(
                try await stack.send(.GET, "/admin/v1/tenants/\(m.tenantId)", token: stack.operatorToken), "Tenant",
                status: 200)
            try check(
                try await stack.send(
                    .GET, "/admin/v1/tenants/\(m.tenantId)/provider-accounts/\(m.accountId)",
                    token: stack.operatorToken), "ProviderAccount", status: 200)
            try check(try await stack.send(.GET, "/v1/payments"), "Error", status: 401)
            try check(try await stack.send(.GET, "/v1/payments/pay_missing", token: m.apiKey), "Error", status: 404)
            try check(
                try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey,
                    json: ["amount": "12", "currency": "USD", "country": "US", "method": "alipay", "reference": "r"]),
                "Error", status: 400)
            try check(
                try await stack.send(
                    .PUT, "/admin/v1/tenants/\(m.tenantId)/routing", token: stack.operatorToken,
                    json: ["rules": [["name": "nowhere", "accounts": [UUID().uuidString]]]]),
                "Error", status: 422)
        }
    }
}
