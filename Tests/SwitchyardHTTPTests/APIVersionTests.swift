import Foundation
import Logging
import SwitchyardCore
import SwitchyardStore
import Testing

/// Merchant API versions: a tenant is pinned to the current version by its first API key, a request may
/// ask for another with `Switchyard-Version`, and each version's changes (unknown body fields refused,
/// light payment lists) apply only from that version on.
@Suite struct APIVersionTests {
    static let old = APIVersion.v2026_06_01.name
    static let new = APIVersion.v2026_12_01.name

    static var payment: [String: Any] {
        ["amount": 100, "currency": "USD", "country": "US", "method": "alipay", "reference": "versions"]
    }

    /// The version a reply was answered in.
    static func version(_ reply: TestStack.Reply) -> String? {
        reply.headers.first { $0.0.lowercased() == "switchyard-version" }?.1
    }

    static func param(_ reply: TestStack.Reply) -> String? {
        (reply.json["error"] as? [String: Any])?["param"] as? String
    }

    /// Makes `tenant` look like one from before versions existed (no pinned version).
    static func unpin(_ stack: TestStack, tenant: String) async throws {
        try await PGPool.scoped(connectionString: stack.databaseURL, logger: Logger(label: "test")) { pool in
            try await pool.withConnection { c in
                _ = try await c.query("UPDATE tenants SET api_version = NULL WHERE id = $1::uuid", [.text(tenant)])
            }
        }
    }

    @Test func theFirstKeyPinsTheTenantAndTheHeaderOverridesThePin() async throws {
        try await TestStack.with { stack in
            let created = try await stack.send(
                .POST, "/admin/v1/tenants", token: stack.operatorToken, json: ["name": "Pinned"])
            let tenant = try #require(created.json["id"] as? String)
            #expect(created.json["api_version"] is NSNull, "no version before the first key")
            for name in ["first", "second"] {
                let key = try await stack.send(
                    .POST, "/admin/v1/tenants/\(tenant)/api-keys", token: stack.operatorToken,
                    json: ["name": name, "scopes": ["payments", "admin"]])
                try #require(key.status == 201)
                let shown = try await stack.send(.GET, "/admin/v1/tenants/\(tenant)", token: stack.operatorToken)
                #expect(shown.json["api_version"] as? String == Self.new, "after the \(name) key")
            }

            let m = try await stack.merchant()
            let pinned = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect(pinned.status == 200 && Self.version(pinned) == Self.new)
            let asked = try await stack.send(
                .GET, "/v1/payments", token: m.apiKey, headers: ["Switchyard-Version": Self.old])
            #expect(asked.status == 200 && Self.version(asked) == Self.old)
            for bad in ["2025-01-01", "garbage", "2026-6-1", ""] {
                let refused = try await stack.send(
                    .GET, "/v1/payments", token: m.apiKey, headers: ["Switchyard-Version": bad])
                #expect(refused.status == 400 && refused.errorCode == "invalid_api_version", "\(bad)")
                #expect(Self.param(refused) == "Switchyard-Version")
            }
            let endpoints = try await stack.send(.GET, "/v1/webhook-endpoints", token: m.apiKey)
            #expect(Self.version(endpoints) == Self.new, "every /v1 route answers its version")
        }
    }

    @Test func aTenantFromBeforeVersionsBehavesAsTheOldestAndStaysSo() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            try await Self.unpin(stack, tenant: m.tenantId)
            let reply = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect(Self.version(reply) == Self.old)
            let key = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken,
                json: ["name": "later", "scopes": ["payments"]])
            try #require(key.status == 201)
            let shown = try await stack.send(.GET, "/admin/v1/tenants/\(m.tenantId)", token: stack.operatorToken)
            #expect(shown.json["api_version"] is NSNull, "a tenant that had keys is not pinned by a new one")
        }
    }

    @Test func unknownBodyFieldsAreRefusedInTheNewVersionAndIgnoredInTheOld() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let oldHeader = ["Switchyard-Version": Self.old]
            var typo = Self.payment
            typo["metdata"] = ["a": "b"]
            let refused = try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: typo)
            #expect(refused.status == 400 && refused.errorCode == "unknown_parameter")
            #expect(Self.param(refused) == "metdata")
            let message = (refused.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("metadata"), "the close known field is suggested: \(message)")
            var known = Self.payment
            known["metadata"] = ["a": "b"]
            #expect(try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: known).status == 201)
            let ignored = try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: typo, headers: oldHeader)
            #expect(ignored.status == 201, "the old version ignores it")
            let id = try #require(ignored.json["id"] as? String)

            // Every kind of body: operations, options, endpoints, routing (nested paths).
            let cases: [(String, String, [String: Any], String)] = [
                ("/v1/payments/\(id)/cancel", "POST", ["reason": "x"], "reason"),
                ("/v1/payments/\(id)/capture", "POST", ["amout": 1], "amout"),
                ("/v1/payments/\(id)/refunds", "POST", ["amount": 1, "reson": "x"], "reson"),
                (
                    "/v1/payment-options", "POST", ["country": "US", "currency": "USD", "amount": 1, "x": 1],
                    "x"
                ),
                (
                    "/v1/webhook-endpoints", "POST",
                    ["url": "http://127.0.0.1:9/h", "event_types": ["*"], "descripton": "x"], "descripton"
                ),
                (
                    "/v1/routing", "PUT",
                    [
                        "rules": [
                            [
                                "name": "r", "match": ["countries": ["US"], "curencies": ["USD"]],
                                "accounts": [m.accountId],
                            ]
                        ]
                    ],
                    "rules[0].match.curencies"
                ),
            ]
            for (path, method, body, field) in cases {
                let reply = try await stack.send(method == "PUT" ? .PUT : .POST, path, token: m.apiKey, json: body)
                #expect(reply.status == 400 && reply.errorCode == "unknown_parameter", "\(path): \(reply.status)")
                #expect(Self.param(reply) == field, "\(path): \(String(decoding: reply.body, as: UTF8.self))")
                let old = try await stack.send(
                    method == "PUT" ? .PUT : .POST, path, token: m.apiKey, json: body, headers: oldHeader)
                #expect(old.errorCode != "unknown_parameter", "\(path) in the old version")
            }
            // Free-form objects (metadata, payment data) take any key.
            var free = Self.payment
            free["payment_data"] = ["anything": ["nested": true]]
            free["metadata"] = ["whatever": "x"]
            #expect(try await stack.send(.POST, "/v1/payments", token: m.apiKey, json: free).status == 201)
        }
    }

    @Test func listsLeaveOutHeavyPartsUnlessExpandedInTheNewVersion() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await stack.createPayment(m, Self.payment)
            let id = try #require(created["id"] as? String)
            #expect((created["attempts"] as? [Any])?.count == 1)
            func first(_ query: String, headers: [String: String] = [:]) async throws -> [String: Any] {
                let reply = try await stack.send(.GET, "/v1/payments?\(query)", token: m.apiKey, headers: headers)
                try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                return try #require((reply.json["data"] as? [[String: Any]])?.first)
            }
            let light = try await first("limit=1")
            #expect(light["id"] as? String == id)
            #expect(light["attempts"] == nil && light["operations"] == nil && light["routing"] == nil)
            let withAttempts = try await first("limit=1&expand[]=attempts")
            #expect((withAttempts["attempts"] as? [Any])?.count == 1)
            #expect(withAttempts["operations"] == nil)
            let encoded = try await first("limit=1&expand%5B%5D=operations&expand%5B%5D=routing")
            #expect(encoded["operations"] is [Any] && encoded["routing"] != nil && encoded["attempts"] == nil)
            let old = try await first("limit=1", headers: ["Switchyard-Version": Self.old])
            #expect((old["attempts"] as? [Any])?.count == 1 && old["operations"] is [Any])
            let single = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
            #expect((single.json["attempts"] as? [Any])?.count == 1, "one payment is always whole")

            for query in ["expand[]=bogus", "expand[]=attempts&expand[]=refundz"] {
                let refused = try await stack.send(.GET, "/v1/payments?\(query)", token: m.apiKey)
                #expect(refused.status == 400 && refused.errorCode == "invalid_expand", "\(query)")
                #expect(Self.param(refused) == "expand[]")
            }
        }
    }

    @Test func eventsAreRenderedInTheTenantsPinnedVersion() async throws {
        try await TestStack.with { stack in
            let current = try await stack.merchant(name: "Current")
            let before = try await stack.merchant(name: "Before")
            try await Self.unpin(stack, tenant: before.tenantId)
            for (m, expected) in [(current, Self.new), (before, Self.old)] {
                let id = try #require(try await stack.createPayment(m, Self.payment)["id"] as? String)
                // The header changes the answer, not the rendering stored for the tenant's endpoints.
                let events = try await stack.send(
                    .GET, "/v1/events?object=\(id)", token: m.apiKey, headers: ["Switchyard-Version": Self.old])
                let event = try #require((events.json["data"] as? [[String: Any]])?.first)
                #expect(event["api_version"] as? String == expected)
                let object = try #require((event["data"] as? [String: Any])?["object"] as? [String: Any])
                #expect(object["id"] as? String == id)
            }
        }
    }

    @Test func malformedListFiltersAreRefusedNamingTheParameter() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let op = stack.operatorToken
            let missing = UUID().uuidString
            let cases: [(String, String?, String, String)] = [
                ("/admin/v1/audit?tenant=garbage", op, "invalid_parameter", "tenant"),
                ("/admin/v1/audit?tenant=\(missing)", op, "invalid_parameter", "tenant"),
                ("/admin/v1/audit?created[gte]=yesterday", op, "invalid_parameter", "created[gte]"),
                ("/admin/v1/tenants?created[lt]=2026-13-45", op, "invalid_parameter", "created[lt]"),
                ("/admin/v1/tenants?status=active", op, "unknown_parameter", "status"),
                ("/admin/v1/payments/review?tenant=garbage", op, "invalid_parameter", "tenant"),
                ("/admin/v1/webhook-deliveries?tenant=garbage", op, "invalid_tenant", "tenant"),
                ("/admin/v1/webhook-deliveries?tenant=\(missing)", op, "invalid_tenant", "tenant"),
                ("/admin/v1/webhook-deliveries?status=lost", op, "invalid_status", "status"),
                ("/admin/v1/tenants/\(m.tenantId)/api-keys?created[gt]=soon", op, "invalid_parameter", "created[gt]"),
                ("/v1/payments?created[gte]=yesterday", nil, "invalid_parameter", "created[gte]"),
                ("/v1/payments?status=lost", nil, "invalid_status", "status"),
                ("/v1/events?type=payment.lost", nil, "invalid_parameter", "type"),
                ("/v1/events?created[lte]=never", nil, "invalid_parameter", "created[lte]"),
                ("/v1/webhook-endpoints?status=lost", nil, "invalid_status", "status"),
                ("/v1/customers/c1/payment-methods?status=lost", nil, "invalid_status", "status"),
                ("/v1/routing/versions?created[gt]=x", nil, "invalid_parameter", "created[gt]"),
            ]
            for (path, token, code, param) in cases {
                let reply = try await stack.send(.GET, path, token: token ?? m.apiKey)
                #expect(reply.status == 400 && reply.errorCode == code, "\(path): \(reply.errorCode ?? "-")")
                #expect(Self.param(reply) == param, "\(path): \(String(decoding: reply.body, as: UTF8.self))")
            }
        }
    }
}
