import Foundation
import Logging
import ProviderSandbox
import SwitchyardCrypto
import SwitchyardStore
import Testing

/// Verified notifications are applied exactly once: a replay is recognised by its signed content (an
/// unsigned field added changes nothing), and one whose application failed is applied when sent again.
@Suite(.serialized)
struct NotificationReplayTests {
    /// A Citcon IPN for a payment, signed with the merchant's IPN secret over the fields it names.
    static func ipn(charge: CitconCharge, attempt: String, status: String = "success", extra: String = "") -> Data {
        let fields: [(String, String)] = [
            ("id", charge.id), ("transaction_type", "charge"), ("reference", attempt), ("amount", "1234"),
            ("currency", "USD"), ("status", status),
        ]
        let names = fields.map(\.0).joined(separator: ",")
        let signed = (fields + [("fields", names)]).sorted { $0.0 < $1.0 }
        let content = signed.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let sign = Hex.encode(SHA2.sha256(Array((content + "&secret=" + TestStack.citconMerchant.ipnSecret).utf8)))
        let form = fields.map { "\($0.0)=\($0.1)" }.joined(separator: "&") + "&fields=\(names)&sign=\(sign)"
        return Data((form + extra).utf8)
    }

    /// A Citcon payment the shopper paid whose own notification was lost: (payment id, attempt id, charge).
    static func paidPayment(_ stack: TestStack, _ m: TestStack.Merchant) async throws -> (String, String, CitconCharge)
    {
        let flows = CitconEndToEndTests()
        let created = try await flows.payment(stack, m)
        let id = try #require(created["id"] as? String)
        let attempt = try #require((created["attempts"] as? [[String: Any]])?.first?["id"] as? String)
        await stack.sandbox.citcon.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
        let charge = try await stack.sandbox.citcon.confirm(
            chargeToken: try flows.chargeToken(created), method: "alipay")
        return (id, attempt, charge)
    }

    static func post(_ stack: TestStack, _ m: TestStack.Merchant, _ body: Data) async throws -> TestStack.Reply {
        try await stack.send(
            .POST, "/notifications/\(m.accountId)", raw: body,
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
    }

    /// The verified notifications of an account: (applied, raw body).
    static func verified(_ stack: TestStack, account: String) async throws -> [(Bool, String)] {
        try await stack.runtime.pool.withConnection { c in
            try await c.query(
                "SELECT applied_at, body FROM notifications WHERE account_id = $1::uuid AND verified ORDER BY id",
                [.text(account)]
            ).rows.map { ($0.optionalDate("applied_at") != nil, String(decoding: try $0.bytes("body"), as: UTF8.self)) }
        }
    }

    @Test func aCitconReplayWithAnUnsignedFieldAddedIsAcknowledgedNotAppliedAgain() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let (id, attempt, charge) = try await Self.paidPayment(stack, m)
            let original = Self.ipn(charge: charge, attempt: attempt)
            let first = try await Self.post(stack, m, original)
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            let paid = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(paid["status"] as? String == "succeeded")

            let replay = Self.ipn(charge: charge, attempt: attempt, extra: "&note=again")
            let second = try await Self.post(stack, m, replay)
            #expect(second.status == 200, "a replay is acknowledged")
            let rows = try await Self.verified(stack, account: m.accountId)
            #expect(rows.count == 1, "recorded and applied once: \(rows.map(\.1))")
            #expect(rows.first?.0 == true, "marked applied")
            #expect(rows.first?.1 == String(decoding: original, as: UTF8.self))
        }
    }

    @Test func aNotificationWhoseApplicationFailedIsRefusedRetryablyAndAppliedWhenSentAgain() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let (id, attempt, charge) = try await Self.paidPayment(stack, m)
            let body = Self.ipn(charge: charge, attempt: attempt)
            // The injected failure: payments cannot be changed while the notification is applied.
            // Grants belong to the tables' owner, not to the server's role.
            try await PGPool.scoped(connectionString: stack.ownerURL, logger: Logger(label: "test")) { owner in
                try await owner.withConnection { c in
                    _ = try await c.query("REVOKE UPDATE ON payments FROM \(Schema.tenantRole)", [])
                }
            }
            let failed = try await Self.post(stack, m, body)
            try await PGPool.scoped(connectionString: stack.ownerURL, logger: Logger(label: "test")) { owner in
                try await owner.withConnection { c in
                    _ = try await c.query("GRANT UPDATE ON payments TO \(Schema.tenantRole)", [])
                }
            }
            #expect(failed.status == 503, "the provider is told to send it again")
            #expect(try await Self.verified(stack, account: m.accountId).map(\.0) == [false], "recorded unapplied")
            let pending = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(pending["status"] as? String == "requires_action")

            let retried = try await Self.post(stack, m, body)
            #expect(retried.status == 200)
            let paid = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(paid["status"] as? String == "succeeded", "the retry is applied, not skipped as a duplicate")
            #expect(try await Self.verified(stack, account: m.accountId).map(\.0) == [true])
        }
    }
}
