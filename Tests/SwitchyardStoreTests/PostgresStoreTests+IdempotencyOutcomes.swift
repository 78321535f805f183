import Foundation
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// Keys written before migration 16, which stored a response's status and body: they replay the outcome
/// their body names, and one left unanswered is still taken over.
extension PostgresStoreTests {
    /// Inserts a key as the version before migration 16 wrote it.
    func legacyKey(
        _ store: PostgresStore, tenant: UUID, key: String, status: Int?, body: Data?, resourceId: String?
    ) async throws {
        let now = Date()
        try await store.tenantScoped(tenant) { c in
            try await c.query(
                """
                INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at, owner, locked_until,
                    resource_id, response_status, response_body, completed_at)
                VALUES ($1::uuid, $2, 'h', $3::timestamptz, 'old-owner', $4::timestamptz, $5, $6::integer,
                    $7::bytea, $8::timestamptz)
                """,
                [
                    .uuid(tenant), .text(key), .timestamp(now),
                    status == nil ? .timestamp(now.addingTimeInterval(-1)) : .null, resourceId.pg,
                    status.map { .int(Int64($0)) } ?? .null, body.map { .bytea([UInt8]($0)) } ?? .null,
                    status == nil ? .null : .timestamp(now),
                ])
        }
    }

    @Test func aKeyAnsweredBeforeOutcomesReplaysTheOutcomeItsResponseNames() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let body = Data(#"{"object":"payment","id":"pay_old"}"#.utf8)
        try await legacyKey(store, tenant: tenant, key: "k", status: 201, body: body, resourceId: "pay_old")
        #expect(
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: "k", requestHash: "h", owner: "new", lease: 60)
                == .replay(.createdPayment("pay_old")))
        #expect(
            try await !store.idempotencyKeys.finishIdempotent(
                tenant: tenant, key: "k", owner: "old-owner", outcome: .createdPayment("pay_other")),
            "an answered key keeps its answer")
    }

    @Test func aKeyLeftRunningBeforeOutcomesIsTakenOverAndAnsweredAsAnOutcome() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        try await legacyKey(store, tenant: tenant, key: "k", status: nil, body: nil, resourceId: "pay_old")
        #expect(
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: "k", requestHash: "h", owner: "new", lease: 60)
                == .resume(resourceId: "pay_old"))
        #expect(
            try await store.idempotencyKeys.finishIdempotent(
                tenant: tenant, key: "k", owner: "new", outcome: .createdPayment("pay_old")))
        #expect(
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: "k", requestHash: "h", owner: "later", lease: 60)
                == .replay(.createdPayment("pay_old")))
    }
}

/// The outcome read back from a response body stored before migration 16, without a database.
struct LegacyIdempotencyOutcomeTests {
    @Test func aBodyIsReadBackAsTheResourceOrErrorItAnswered() {
        func outcome(_ status: Int, _ json: String) -> IdempotentOutcome {
            PostgresIdempotencyKeys.legacyOutcome(status: status, body: Data(json.utf8))
        }
        #expect(
            outcome(201, #"{"object":"refund","id":"re_1","amount":5}"#)
                == .resource(IdempotentResource(kind: .refund, id: "re_1", created: true)))
        #expect(
            outcome(200, #"{"object":"payment","id":"pay_1"}"#)
                == .resource(IdempotentResource(kind: .payment, id: "pay_1", created: false)))
        #expect(
            outcome(201, #"{"object":"payment_method","id":"pm_1","customer":"cus_1"}"#)
                == .resource(IdempotentResource(kind: .paymentMethod, id: "pm_1", parent: "cus_1", created: true)))
        #expect(
            outcome(402, #"{"error":{"code":"provider_declined","message":"no","decline_code":"do_not_honor"}}"#)
                == .failure(CoreError(.providerDeclined, "no", declineCode: "do_not_honor")))
        #expect(
            outcome(400, #"{"error":{"code":"invalid_field","message":"bad","param":"amount"}}"#)
                == .failure(CoreError(.invalidField, "bad", param: "amount")))
        #expect(
            outcome(200, "not json")
                == .failure(CoreError(.internalError, "the request's answer could not be read again")))
        #expect(
            outcome(200, #"{"object":"customer","id":"cus_1"}"#)
                == .failure(CoreError(.internalError, "the request's answer could not be read again")))
    }
}
