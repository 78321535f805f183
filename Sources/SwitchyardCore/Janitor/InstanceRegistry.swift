import Foundation

/// The server incarnations running on one database, so that the `Idempotency-Key`s a dead one held are
/// released at once instead of after their lease: a restarted replica releases what its previous
/// incarnations held when it starts, and a janitor releases what an incarnation that stopped heart-beating
/// held. Releasing a key is what ``IdempotencyRepository/releaseIdempotent(tenant:key:owner:)`` does: a key
/// under which nothing was created is forgotten, one under which something was created has its lease ended,
/// so the next retry takes it over and resumes from what it names.
public protocol InstanceRegistry: Sendable {
    /// Starts a new incarnation of `replica` at `now` and releases every key an earlier incarnation of it
    /// still holds; returns the incarnation and how many keys were released.
    func startIncarnation(replica: String, now: Date) async throws -> (instance: ServerInstance, released: Int)
    /// Records that `instance` is alive at `now`; false when a newer incarnation of its replica started since.
    @discardableResult
    func heartbeat(_ instance: ServerInstance, now: Date) async throws -> Bool
    /// Releases the keys of at most `limit` incarnations silent since before `silentSince` (other than
    /// `except`), each once; returns how many keys were released.
    func releaseKeysOfSilentInstances(silentSince: Date, except: ServerInstance?, now: Date, limit: Int)
        async throws -> Int
}
