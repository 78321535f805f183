import Foundation
import SwitchyardCore

/// The janitor's settlement of keys left in progress past their lease: at most `limit` of them, oldest lease
/// first, read through `idempotency_keys_in_progress` (migration 18) and locked skipping any a request is
/// changing; each answered with the resource ``IdempotentResource/settled(key:resourceId:)`` names (only if
/// its owner still owns it, as every answer), or else forgotten.
extension PostgresIdempotencyKeys {
    public func settleExpiredKeys(now: Date, limit: Int) async throws -> ExpiredKeySettlement {
        try await system { c in
            let rows = try await c.query(Self.expiredKeys, [.timestamp(now), .int(Int64(max(0, limit)))]).rows
            var settled = ExpiredKeySettlement()
            for row in rows {
                let (tenant, key) = (try row.uuid("tenant_id"), try row.string("key"))
                if let resource = IdempotentResource.settled(key: key, resourceId: row.optionalString("resource_id")),
                    let owner = row.optionalString("owner")
                {
                    if try await Self.finish(key: key, owner: owner, outcome: .resource(resource), now: now, on: c) {
                        settled.completed += 1
                    }
                } else {
                    settled.released += try await c.query(
                        "DELETE FROM idempotency_keys WHERE tenant_id = $1::uuid AND key = $2 AND completed_at IS NULL",
                        [.uuid(tenant), .text(key)]
                    ).affectedRows
                }
            }
            return settled
        }
    }

    /// The keys in progress whose lease ended before `$1`, oldest lease first, at most `$2`, locked unless a
    /// request is changing them.
    static let expiredKeys = """
        SELECT tenant_id, key, owner, resource_id FROM idempotency_keys
        WHERE completed_at IS NULL AND locked_until < $1::timestamptz
        ORDER BY locked_until LIMIT $2::bigint FOR UPDATE SKIP LOCKED
        """
}
