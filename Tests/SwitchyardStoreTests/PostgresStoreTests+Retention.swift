import Foundation
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// The retention deletes: each removes only finished rows past the cutoff, at most the batch, and every
/// selection is served by its index.
extension PostgresStoreTests {
    /// Runs `sql` on a connection of `store`'s pool (the system's rights: every tenant's rows).
    func run(_ store: PostgresStore, _ sql: String, _ params: [PGValue] = []) async throws {
        try await store.pool.withConnection { c in _ = try await c.query(sql, params) }
    }

    /// The values of `column` in `table`, sorted.
    func column(_ store: PostgresStore, _ column: String, of table: String) async throws -> [String] {
        try await store.pool.withConnection { c in
            try await c.query("SELECT \(column)::text AS v FROM \(table) ORDER BY 1").rows.map { try $0.string("v") }
        }
    }

    /// Ten days ago: every retention test's cutoff is five days ago.
    static let old = "now() - interval '10 days'"
    static var cutoff: Date { Date().addingTimeInterval(-5 * 86_400) }

    @Test func answeredKeysPastTheCutoffGoInBatchesAndUnansweredOnesStay() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        for (key, completed) in [
            ("old-1", Self.old), ("old-2", Self.old), ("old-3", Self.old), ("recent", "now()"), ("running", "NULL"),
        ] {
            try await run(
                store,
                """
                INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at, completed_at)
                VALUES ($1::uuid, '\(key)', 'h', \(Self.old), \(completed))
                """, [.uuid(tenant)])
        }
        #expect(try await store.retention.deleteExpired(.idempotencyKeys, before: Self.cutoff, limit: 2) == 2)
        #expect(try await store.retention.deleteExpired(.idempotencyKeys, before: Self.cutoff, limit: 2) == 1)
        #expect(try await store.retention.deleteExpired(.idempotencyKeys, before: Self.cutoff, limit: 2) == 0)
        #expect(try await column(store, "key", of: "idempotency_keys") == ["recent", "running"])
    }

    @Test func aKeyClaimedAfterItsDeletionIsFresh() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        func claim(_ owner: String) async throws -> IdempotencyClaim {
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: "order-1", requestHash: "h", owner: owner, lease: 60)
        }
        #expect(try await claim("a") == .proceed)
        try await store.idempotencyKeys.finishIdempotent(
            tenant: tenant, key: "order-1", owner: "a", outcome: .createdPayment("pay_1"))
        #expect(try await claim("b") == .replay(.createdPayment("pay_1")))
        #expect(
            try await store.retention.deleteExpired(.idempotencyKeys, before: Date().addingTimeInterval(1), limit: 10)
                == 1)
        #expect(try await claim("c") == .proceed, "the same key and body start a new request")
    }

    @Test func finalDeliveriesGoWithTheirAttemptsAndEventsOnceNoDeliveryIsLeft() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        try await run(
            store,
            """
            INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, secret_encrypted, created_at, updated_at)
            VALUES ('we_1', $1::uuid, 'https://example.invalid', '["*"]', 'x', now(), now())
            """, [.uuid(tenant)])
        for (event, created) in [("evt_done", Self.old), ("evt_pending", Self.old), ("evt_new", "now()")] {
            try await run(
                store,
                """
                INSERT INTO webhook_events (id, tenant_id, type, object_id, payload, created_at)
                VALUES ('\(event)', $1::uuid, 'payment.succeeded', 'pay_1', '{}', \(created))
                """, [.uuid(tenant)])
        }
        for (delivery, event, status, updated) in [
            ("whd_ok", "evt_done", "succeeded", Self.old), ("whd_dead", "evt_done", "dead", Self.old),
            ("whd_off", "evt_done", "canceled", Self.old), ("whd_retrying", "evt_pending", "pending", Self.old),
            ("whd_fresh", "evt_new", "succeeded", "now()"),
        ] {
            try await run(
                store,
                """
                INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, created_at, updated_at)
                VALUES ('\(delivery)', $1::uuid, '\(event)', 'we_1', '\(status)', \(Self.old), \(updated));
                """, [.uuid(tenant)])
            try await run(
                store,
                """
                INSERT INTO webhook_attempts (tenant_id, delivery_id, number, started_at, latency_ms, worker)
                VALUES ($1::uuid, '\(delivery)', 1, \(Self.old), 5, 'w')
                """, [.uuid(tenant)])
        }
        // No delivery is final yet for `evt_pending`, and `evt_done` still has its deliveries.
        #expect(try await store.retention.deleteExpired(.webhookEvents, before: Self.cutoff, limit: 10) == 0)
        #expect(try await store.retention.deleteExpired(.webhookDeliveries, before: Self.cutoff, limit: 2) == 2)
        #expect(try await store.retention.deleteExpired(.webhookDeliveries, before: Self.cutoff, limit: 2) == 1)
        #expect(try await column(store, "id", of: "webhook_deliveries") == ["whd_fresh", "whd_retrying"])
        #expect(try await column(store, "delivery_id", of: "webhook_attempts") == ["whd_fresh", "whd_retrying"])
        #expect(try await store.retention.deleteExpired(.webhookEvents, before: Self.cutoff, limit: 10) == 1)
        #expect(try await column(store, "id", of: "webhook_events") == ["evt_new", "evt_pending"])
    }

    @Test func handledNotificationsGoUnlessTheirPaymentIsOpen() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        try await store.payments.commit(PaymentChanges(payment: payment(tenant, id: "pay_open")))
        var done = payment(tenant, id: "pay_done")
        done.status = .succeeded
        try await store.payments.commit(PaymentChanges(payment: done))
        let rows: [(String, Bool, String, String?, String?)] = [
            ("applied", true, Self.old, nil, nil), ("recent", true, "now()", nil, nil),
            ("not handled", true, "NULL", nil, nil), ("rejected open", true, Self.old, "too_much", "pay_open"),
            ("rejected final", true, Self.old, "too_much", "pay_done"),
            ("rejected gone", true, Self.old, "too_much", "pay_gone"), ("unverified", false, "NULL", nil, nil),
        ]
        for (name, verified, applied, review, paymentId) in rows {
            try await run(
                store,
                """
                INSERT INTO notifications (tenant_id, account_id, body_hash, headers, body, verified, received_at,
                    applied_at, review_code, payment_id)
                VALUES ($1::uuid, gen_random_uuid(), $2, '[]', $3::bytea, $4::boolean, \(Self.old), \(applied), $5, $6)
                """,
                [.uuid(tenant), .text(name), .bytea(Array(name.utf8)), .bool(verified), review.pg, paymentId.pg])
        }
        #expect(try await store.retention.deleteExpired(.notifications, before: Self.cutoff, limit: 10) == 3)
        #expect(
            try await column(store, "body_hash", of: "notifications")
                == ["not handled", "recent", "rejected open", "unverified"])
    }

    @Test func auditEntriesPastTheCutoffGo() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        try await run(
            store,
            """
            INSERT INTO audit_log (tenant_id, actor, action, target, details, at)
            VALUES ($1::uuid, 'op', 'old.action', 't', '{}', \(Self.old)), (NULL, 'op', 'older', 't', '{}', \(Self.old))
            """, [.uuid(tenant)])
        #expect(try await store.retention.deleteExpired(.auditEntries, before: Self.cutoff, limit: 10) == 2)
        #expect(try await column(store, "action", of: "audit_log") == ["tenant.create"])
    }

    @Test func everyRetentionSelectionIsServedByItsIndex() async throws {
        let store = try await makeStore()
        let indexes: [RetentionKind: String] = [
            .idempotencyKeys: "idempotency_keys_answered", .webhookDeliveries: "webhook_deliveries_final_age",
            .webhookEvents: "webhook_events_age", .notifications: "notifications_handled_age",
            .auditEntries: "audit_log_age",
        ]
        for kind in RetentionKind.allCases {
            let plan = try await store.pool.withConnection { c in
                // Tables this small are read whole by choice; the question is whether the index can serve.
                _ = try await c.query("SET enable_seqscan = off")
                let plan = try await c.query(
                    "EXPLAIN " + PostgresRetention.retentionSelection(kind), [.timestamp(Self.cutoff), .int(100)]
                ).rows.map { try $0.string("QUERY PLAN") }.joined(separator: "\n")
                _ = try await c.query("RESET enable_seqscan")
                return plan
            }
            #expect(plan.contains(indexes[kind] ?? "?"), "\(kind): \(plan)")
        }
    }
}
