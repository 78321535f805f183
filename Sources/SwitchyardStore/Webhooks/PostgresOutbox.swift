import Foundation
import SwitchyardCore
import SwitchyardCrypto

/// The outbox: every payment, refund and credential status change writes its webhook event, and one
/// pending delivery per subscribed endpoint, in the transaction that makes the change.
enum PostgresOutbox {
    static let eventIds = IdentifierGenerator(randomBytes: { SecureRandom.bytes($0) })

    /// The stored status of a row, locking it, or nil when the row is new.
    static func lockedStatus(_ table: String, id: String, on c: PGConnection) async throws -> String? {
        try await c.query("SELECT status FROM \(table) WHERE id = $1 FOR UPDATE", [.text(id)]).first?.string("status")
    }

    /// Stores `event` and a pending delivery, due at once, for each enabled endpoint of its tenant that
    /// subscribes to its type.
    static func enqueue(_ event: WebhookEvent, on c: PGConnection) async throws {
        try await c.pipeline(enqueueing(event))
    }

    /// The two statements of ``enqueue(_:on:)``.
    static func enqueueing(_ event: WebhookEvent) -> [PGStatement] {
        [
            storing(event),
            PGStatement(
                """
                INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at,
                    created_at, updated_at)
                SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), $2::uuid, $1, e.id, 'pending',
                    $4::timestamptz, $4::timestamptz, $4::timestamptz
                FROM webhook_endpoints e
                WHERE e.tenant_id = $2::uuid AND e.enabled AND e.event_types ?| ARRAY['*', $3, $5]
                    AND e.livemode = $6::boolean
                """,
                [
                    .text(event.id), .uuid(event.tenantId), .text(event.type), .timestamp(event.createdAt),
                    .text(WebhookEventType.family(of: event.type) + ".*"), .bool(event.livemode),
                ]),
        ]
    }

    /// The statement that stores `event` (without deliveries): rendered in the API version its tenant is
    /// pinned to, whose name the statement itself writes into the event's ``WebhookEvent/versionSlot`` (a
    /// tenant without a pin, or a stored event, gets ``WebhookEvent/payload`` as it is: the oldest version).
    static func storing(_ event: WebhookEvent) -> PGStatement {
        var parameters: [PGValue] = [
            .text(event.id), .uuid(event.tenantId), .text(event.type), .text(event.objectId),
            .timestamp(event.createdAt), .bool(event.livemode),
        ]
        let payload: String
        if let slot = event.versionSlot, slot.lowerBound >= 0, slot.upperBound <= event.payload.count {
            // $7 and $9 around the slot, $8 the oldest version's name it holds, then every version's name.
            let bytes = Array(event.payload)
            parameters += [
                .text(String(decoding: bytes[..<slot.lowerBound], as: UTF8.self)),
                .text(String(decoding: bytes[slot], as: UTF8.self)),
                .text(String(decoding: bytes[slot.upperBound...], as: UTF8.self)),
            ]
            var choices = ""
            for version in APIVersion.all {
                parameters.append(.text(version.name))
                choices += " WHEN $\(parameters.count) THEN $\(parameters.count)"
            }
            payload =
                "$7::text || CASE (SELECT api_version FROM tenants WHERE id = $2::uuid)\(choices) ELSE $8::text END"
                + " || $9::text"
        } else {
            parameters.append(.text(String(decoding: event.payload, as: UTF8.self)))
            payload = "$7"
        }
        return PGStatement(
            """
            INSERT INTO webhook_events (id, tenant_id, type, object_id, payload, created_at, livemode)
            VALUES ($1, $2::uuid, $3, $4, \(payload), $5::timestamptz, $6::boolean)
            """, parameters)
    }
}

/// Every repository that changes a status writes its event through the outbox.
extension PostgresRepository {
    /// Writes the event of `subject`'s status change, if it changed from `previous` (nil: a new row).
    func announce(_ subject: some WebhookSubject, previous: String?, on c: PGConnection) async throws {
        try await c.pipeline(try announcement(subject, previous: previous))
    }

    /// The statements that write the event of `subject`'s status change (none when it did not change).
    func announcement(_ subject: some WebhookSubject, previous: String?) throws -> [PGStatement] {
        PostgresOperators.countTransition(subject, from: previous)
        let event = try WebhookEvent.statusChanged(
            from: previous, to: subject, id: PostgresOutbox.eventIds.make("evt"), at: clock())
        return event.map(PostgresOutbox.enqueueing) ?? []
    }
}
