import Foundation
import SwitchyardCore

/// Server incarnations and their heartbeats, over the shared ``PostgresDatabase``.
public struct PostgresInstances: InstanceRegistry, PostgresRepository {
    let database: PostgresDatabase
}

/// Server incarnations in `server_instances` (migration 18): one row per replica id, its current incarnation
/// and last heartbeat. The keys an incarnation holds are those whose owner starts with its
/// ``ServerInstance/ownerPrefix``; releasing them is what ``releaseIdempotent(tenant:key:owner:)`` does to
/// one key. Keys another transaction is changing (`FOR UPDATE SKIP LOCKED`) are left to their lease.
extension PostgresInstances {
    public func startIncarnation(replica: String, now: Date) async throws
        -> (instance: ServerInstance, released: Int)
    {
        let ended = clock()
        return try await system { c in
            let row = try await c.query(
                """
                INSERT INTO server_instances (replica_id, incarnation, started_at, heartbeat_at)
                VALUES ($1, 1, $2::timestamptz, $2::timestamptz)
                ON CONFLICT (replica_id) DO UPDATE SET incarnation = server_instances.incarnation + 1,
                    started_at = $2::timestamptz, heartbeat_at = $2::timestamptz, keys_released_at = NULL
                RETURNING incarnation
                """,
                [.text(replica), .timestamp(now)]
            ).first
            let instance = ServerInstance(replica: replica, incarnation: try row?.int64("incarnation") ?? 1)
            let released = try await Self.releaseKeys(
                ownedBy: ServerInstance.replicaPrefix(replica), except: instance.ownerPrefix, now: ended, on: c)
            return (instance, released)
        }
    }

    @discardableResult
    public func heartbeat(_ instance: ServerInstance, now: Date) async throws -> Bool {
        try await system { c in
            try await c.query(
                """
                UPDATE server_instances SET heartbeat_at = $3::timestamptz, keys_released_at = NULL
                WHERE replica_id = $1 AND incarnation = $2
                """,
                [.text(instance.replica), .int(instance.incarnation), .timestamp(now)]
            ).affectedRows == 1
        }
    }

    public func releaseKeysOfSilentInstances(silentSince: Date, except: ServerInstance?, now: Date, limit: Int)
        async throws -> Int
    {
        let ended = clock()
        return try await system { c in
            let silent = try await c.query(
                """
                SELECT replica_id, incarnation FROM server_instances
                WHERE keys_released_at IS NULL AND heartbeat_at < $1::timestamptz AND replica_id <> $3
                ORDER BY heartbeat_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED
                """,
                [.timestamp(silentSince), .int(Int64(max(0, limit))), .text(except?.replica ?? "")]
            ).rows
            var released = 0
            for row in silent {
                let instance = ServerInstance(
                    replica: try row.string("replica_id"), incarnation: try row.int64("incarnation"))
                await released += try Self.releaseKeys(ownedBy: instance.ownerPrefix, except: nil, now: ended, on: c)
                try await c.query(
                    "UPDATE server_instances SET keys_released_at = $2::timestamptz WHERE replica_id = $1",
                    [.text(instance.replica), .timestamp(now)])
            }
            return released
        }
    }

    /// Releases, inside the caller's transaction, every key in progress whose owner starts with `prefix` but
    /// not with `except`: a key under which nothing was created is forgotten; one under which something was
    /// created, or naming an operation on a payment (which may have reached the provider before the server
    /// died; ``IdempotentResource/paymentOperationKeyPattern``), has its lease ended at `now` (the store's
    /// clock, as ``releaseIdempotent(tenant:key:owner:)`` reads it). Returns how many keys were released.
    static func releaseKeys(ownedBy prefix: String, except: String?, now: Date, on c: PGConnection) async throws -> Int
    {
        let row = try await c.query(
            """
            WITH held AS (
                SELECT tenant_id, key, resource_id IS NOT NULL OR key ~ $4 AS kept FROM idempotency_keys
                WHERE completed_at IS NULL AND left(owner, length($1)) = $1
                    AND ($2 = '' OR left(owner, length($2)) <> $2)
                FOR UPDATE SKIP LOCKED),
            forgotten AS (
                DELETE FROM idempotency_keys k USING held h
                WHERE k.tenant_id = h.tenant_id AND k.key = h.key AND NOT h.kept RETURNING 1),
            ended AS (
                UPDATE idempotency_keys k SET locked_until = $3::timestamptz FROM held h
                WHERE k.tenant_id = h.tenant_id AND k.key = h.key AND h.kept
                    AND (k.locked_until IS NULL OR k.locked_until > $3::timestamptz)
                RETURNING 1)
            SELECT (SELECT count(*) FROM forgotten) + (SELECT count(*) FROM ended) AS released
            """,
            [
                .text(prefix), .text(except ?? ""), .timestamp(now.addingTimeInterval(-0.001)),
                .text(IdempotentResource.paymentOperationKeyPattern),
            ]
        ).first
        return Int(try row?.int64("released") ?? 0)
    }
}
