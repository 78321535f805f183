import SwitchyardCore

/// `Idempotency-Key`s: their claims, answers and the janitor's settlement of expired ones, over the shared
/// ``PostgresDatabase``.
public struct PostgresIdempotencyKeys: IdempotencyRepository, IdempotencyKeyMaintenance, PostgresRepository {
    let database: PostgresDatabase
}
