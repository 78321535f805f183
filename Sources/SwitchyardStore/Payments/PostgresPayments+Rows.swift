import Foundation
import ProviderKit
import SwitchyardCore

/// Row mapping for payments, attempts, refunds and operations.
extension PostgresPayments {
    /// The routing decision, the payment data, the metadata and the description are written with the row and
    /// never after: all are made once, at the create, so a transition never writes them back (nor reads the
    /// first two, ``paymentForUpdate``).
    static let upsertPayment = """
        INSERT INTO payments (id, tenant_id, amount, currency, country, method, reference, capture_mode, customer_id,
            return_url, payment_data, status, amount_captured, amount_refunded, next_action, provider_account_id,
            failure_code, failure_message, routing, created_at, updated_at, payment_method_id, saved_payment_method_id,
            unknown_since, sync_count, next_sync_at, review_required, metadata, description, livemode)
        VALUES ($1, $2::uuid, $3::bigint, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13::bigint, $14::bigint,
            $15::jsonb, $16::uuid, $17, $18, $19::jsonb, $20::timestamptz, $21::timestamptz, $22, $23,
            $24::timestamptz, $25::integer, $26::timestamptz, $27::boolean, $28::jsonb, $29, $30::boolean)
        ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, amount_captured = EXCLUDED.amount_captured,
            amount_refunded = EXCLUDED.amount_refunded, next_action = EXCLUDED.next_action,
            provider_account_id = EXCLUDED.provider_account_id, failure_code = EXCLUDED.failure_code,
            failure_message = EXCLUDED.failure_message, updated_at = EXCLUDED.updated_at,
            saved_payment_method_id = EXCLUDED.saved_payment_method_id, unknown_since = EXCLUDED.unknown_since,
            sync_count = EXCLUDED.sync_count, next_sync_at = EXCLUDED.next_sync_at,
            review_required = EXCLUDED.review_required
        """

    /// Locks a payment's row for a transition and reads every column but the routing decision and the
    /// payment data, which a transition never changes (``upsertPayment``); the payment it gives has no
    /// ``Payment/routing`` and an empty ``Payment/paymentData``.
    static let paymentForUpdate = """
        SELECT id, tenant_id, amount, currency, country, method, reference, capture_mode, customer_id, return_url,
            status, amount_captured, amount_refunded, amount_disputed, next_action, provider_account_id, failure_code,
            failure_message, created_at, updated_at, payment_method_id, saved_payment_method_id, unknown_since,
            sync_count, next_sync_at, review_required, metadata, description, livemode
        FROM payments WHERE id = $1 FOR UPDATE
        """

    static func paymentParameters(_ p: Payment) throws -> [PGValue] {
        [
            .text(p.id), .uuid(p.tenantId), .int(p.amount), .text(p.currency), .text(p.country), .text(p.method),
            .text(p.reference), .text(p.captureMode.rawValue), p.customerId.pg, p.returnURL.pg,
            .json(try StoreJSON.encode(p.paymentData)), .text(p.status.rawValue), .int(p.amountCaptured),
            .int(p.amountRefunded), try p.nextAction.map { .json(try StoreJSON.encode($0)) } ?? .null,
            p.providerAccountId.pg, p.failureCode.pg, p.failureMessage.pg,
            try p.routing.map { .json(try StoreJSON.encode($0)) } ?? .null, .timestamp(p.createdAt),
            .timestamp(p.updatedAt), p.paymentMethodId.pg, p.savedPaymentMethodId.pg,
            p.resolution.map { .timestamp($0.since) } ?? .null, .int(Int64(p.resolution?.syncs ?? 0)),
            (p.resolution?.nextSyncAt).pg, .bool(p.resolution?.reviewRequired ?? false),
            .json(try StoreJSON.encode(p.metadata)), p.merchantDescription.pg, .bool(p.livemode),
        ]
    }

    static func payment(_ row: PGRow) throws -> Payment {
        var p = Payment(
            id: try row.string("id"), tenantId: try row.uuid("tenant_id"), amount: try row.int64("amount"),
            currency: try row.string("currency"), country: try row.string("country"), method: try row.string("method"),
            reference: try row.string("reference"),
            captureMode: CaptureMode(rawValue: try row.string("capture_mode")) ?? .automatic,
            customerId: row.optionalString("customer_id"), returnURL: row.optionalString("return_url"),
            paymentData: try row.optionalString("payment_data").map {
                try StoreJSON.decode([String: JSONValue].self, $0)
            }
                ?? [:],
            status: PaymentStatus(rawValue: try row.string("status")) ?? .unknown, createdAt: try row.date("created_at")
        )
        p.amountCaptured = try row.int64("amount_captured")
        p.amountRefunded = try row.int64("amount_refunded")
        p.amountDisputed = row.optionalInt64("amount_disputed") ?? 0
        p.nextAction = try row.optionalString("next_action").map { try StoreJSON.decode(NextAction.self, $0) }
        p.providerAccountId = row.optionalUUID("provider_account_id")
        p.failureCode = row.optionalString("failure_code")
        p.failureMessage = row.optionalString("failure_message")
        p.routing = try row.optionalString("routing").map { try StoreJSON.decode(RoutingDecision.self, $0) }
        p.updatedAt = try row.date("updated_at")
        p.paymentMethodId = row.optionalString("payment_method_id")
        p.savedPaymentMethodId = row.optionalString("saved_payment_method_id")
        p.metadata = try StoreJSON.metadata(row)
        p.merchantDescription = row.optionalString("description")
        p.livemode = try row.bool("livemode")
        if let since = row.optionalDate("unknown_since") {
            p.resolution = Payment.Resolution(
                since: since, syncs: Int(try row.int64("sync_count")), nextSyncAt: row.optionalDate("next_sync_at"),
                reviewRequired: try row.bool("review_required"))
        }
        return p
    }

    /// The provider's payment id, once known, is never cleared by a writer that did not learn it.
    static let upsertAttempt = """
        INSERT INTO attempts (id, payment_id, tenant_id, account_id, plugin_id, sequence, outcome, provider_payment_id,
            provider_status, code, message, reason, started_at, finished_at)
        VALUES ($1, $2, $3::uuid, $4::uuid, $5, $6::integer, $7, $8, $9, $10, $11, $12, $13::timestamptz, $14::timestamptz)
        ON CONFLICT (id) DO UPDATE SET outcome = EXCLUDED.outcome,
            provider_payment_id = COALESCE(EXCLUDED.provider_payment_id, attempts.provider_payment_id),
            provider_status = EXCLUDED.provider_status, code = EXCLUDED.code, message = EXCLUDED.message,
            finished_at = EXCLUDED.finished_at
        """

    static func attemptParameters(_ a: Attempt) -> [PGValue] {
        [
            .text(a.id), .text(a.paymentId), .uuid(a.tenantId), .uuid(a.accountId), .text(a.pluginId),
            .int(Int64(a.sequence)), PGValue(a.outcome?.rawValue), a.providerPaymentId.pg, a.providerStatus.pg,
            a.code.pg, a.message.pg, .text(a.reason), .timestamp(a.startedAt), a.finishedAt.pg,
        ]
    }

    static func attempt(_ row: PGRow) throws -> Attempt {
        var a = Attempt(
            id: try row.string("id"), paymentId: try row.string("payment_id"), tenantId: try row.uuid("tenant_id"),
            accountId: try row.uuid("account_id"), pluginId: try row.string("plugin_id"),
            sequence: Int(try row.int64("sequence")), reason: try row.string("reason"),
            startedAt: try row.date("started_at"))
        a.outcome = row.optionalString("outcome").flatMap(Outcome.Kind.init(rawValue:))
        a.providerPaymentId = row.optionalString("provider_payment_id")
        a.providerStatus = row.optionalString("provider_status")
        a.code = row.optionalString("code")
        a.message = row.optionalString("message")
        a.finishedAt = row.optionalDate("finished_at")
        return a
    }

    static let upsertRefund = """
        INSERT INTO refunds (id, payment_id, tenant_id, amount, currency, reason, status, provider_refund_id,
            failure_code, failure_message, created_at, updated_at, metadata, description, livemode)
        VALUES ($1, $2, $3::uuid, $4::bigint, $5, $6, $7, $8, $9, $10, $11::timestamptz, $12::timestamptz, $13::jsonb,
            $14, $15::boolean)
        ON CONFLICT (id) DO UPDATE SET
            status = CASE WHEN refunds.status IN ('succeeded', 'failed') THEN refunds.status ELSE EXCLUDED.status END,
            provider_refund_id = COALESCE(EXCLUDED.provider_refund_id, refunds.provider_refund_id),
            failure_code = CASE WHEN refunds.status IN ('succeeded', 'failed') THEN refunds.failure_code ELSE EXCLUDED.failure_code END,
            failure_message = CASE WHEN refunds.status IN ('succeeded', 'failed') THEN refunds.failure_message ELSE EXCLUDED.failure_message END,
            updated_at = EXCLUDED.updated_at
        """

    /// A payment's refunded amount is the sum of its succeeded refunds (run with the payment row locked).
    static let recomputeRefunded = """
        UPDATE payments SET amount_refunded =
            (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE payment_id = $1 AND status = 'succeeded')
        WHERE id = $1
        """

    static func refundParameters(_ r: Refund) throws -> [PGValue] {
        [
            .text(r.id), .text(r.paymentId), .uuid(r.tenantId), .int(r.amount), .text(r.currency), r.reason.pg,
            .text(r.status.rawValue), r.providerRefundId.pg, r.failureCode.pg, r.failureMessage.pg,
            .timestamp(r.createdAt), .timestamp(r.updatedAt), .json(try StoreJSON.encode(r.metadata)),
            r.merchantDescription.pg, .bool(r.livemode),
        ]
    }

    static func refund(_ row: PGRow) throws -> Refund {
        var r = Refund(
            id: try row.string("id"), paymentId: try row.string("payment_id"), tenantId: try row.uuid("tenant_id"),
            amount: try row.int64("amount"), currency: try row.string("currency"), reason: row.optionalString("reason"),
            createdAt: try row.date("created_at"))
        r.status = Refund.Status(rawValue: try row.string("status")) ?? .unknown
        r.providerRefundId = row.optionalString("provider_refund_id")
        r.failureCode = row.optionalString("failure_code")
        r.failureMessage = row.optionalString("failure_message")
        r.updatedAt = try row.date("updated_at")
        r.metadata = try StoreJSON.metadata(row)
        r.merchantDescription = row.optionalString("description")
        r.livemode = try row.bool("livemode")
        return r
    }

    /// A known outcome (and the cleared replay data that goes with it) is never replaced by `unknown`: a
    /// late timeout must not undo what an inquiry or a notification learnt meanwhile.
    static let upsertOperation = """
        INSERT INTO payment_operations (id, payment_id, tenant_id, kind, amount, outcome, provider_id, code, message, created_at, replay)
        VALUES ($1, $2, $3::uuid, $4, $5::bigint, $6, $7, $8, $9, $10::timestamptz, $11)
        ON CONFLICT (id) DO UPDATE SET outcome = EXCLUDED.outcome, provider_id = EXCLUDED.provider_id,
            code = EXCLUDED.code, message = EXCLUDED.message, replay = EXCLUDED.replay
        WHERE payment_operations.outcome IS NULL OR payment_operations.outcome = 'unknown'
            OR EXCLUDED.outcome <> 'unknown'
        """

    /// The row of an operation; its replay data is sealed under the key-encryption key.
    func operationParameters(_ o: PaymentOperation) throws -> [PGValue] {
        let replay = try o.replayData.map { data in
            try secrets.seal(
                String(decoding: try JSONEncoder().encode(data), as: UTF8.self), context: SealContext.operation(o.id))
        }
        return [
            .text(o.id), .text(o.paymentId), .uuid(o.tenantId), .text(o.kind.rawValue), o.amount.pg,
            PGValue(o.outcome?.rawValue), o.providerId.pg, o.code.pg, o.message.pg, .timestamp(o.createdAt),
            replay.pg,
        ]
    }

    func operation(_ row: PGRow) throws -> PaymentOperation {
        var o = try Self.operationFields(row)
        if let sealed = row.optionalString("replay") {
            let text = try secrets.open(sealed, context: SealContext.operation(o.id))
            o.replayData = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
        }
        return o
    }

    static func operationFields(_ row: PGRow) throws -> PaymentOperation {
        var o = PaymentOperation(
            id: try row.string("id"), paymentId: try row.string("payment_id"), tenantId: try row.uuid("tenant_id"),
            kind: PaymentOperation.Kind(rawValue: try row.string("kind")) ?? .capture,
            amount: row.optionalInt64("amount"), createdAt: try row.date("created_at"))
        o.outcome = row.optionalString("outcome").flatMap(Outcome.Kind.init(rawValue:))
        o.providerId = row.optionalString("provider_id")
        o.code = row.optionalString("code")
        o.message = row.optionalString("message")
        return o
    }
}
