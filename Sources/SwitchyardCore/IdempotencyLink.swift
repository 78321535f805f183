import Foundation

/// Lets the request that owns an `Idempotency-Key` record what it created (a payment or a refund) as soon
/// as it is stored, before any provider is called, so a request that takes the key over after a crash
/// resumes with it instead of creating it again.
public enum IdempotencyLink {
    /// Records the id of a created resource for the current request; nil outside an idempotent request.
    /// A failure to record stops the operation before the provider is called.
    @TaskLocal public static var record: (@Sendable (String) async throws -> Void)?

    /// Records `id` when the current request runs under an `Idempotency-Key`.
    static func created(_ id: String) async throws {
        if let record { try await record(id) }
    }
}
