import Foundation

/// Lets the request that owns an `Idempotency-Key` record what it created (a payment or a refund) as soon
/// as it is stored, before any provider is called, so a request that takes the key over after a crash
/// resumes with it instead of creating it again.
public enum IdempotencyLink {
    /// Records the id of a created resource for the current request. A reference, not a bare closure: an
    /// optimized build binds a task-local closure value wrongly and crashes on entering the scope.
    public final class Recorder: Sendable {
        let record: @Sendable (String) async throws -> Void

        public init(_ record: @escaping @Sendable (String) async throws -> Void) {
            self.record = record
        }
    }

    /// The current request's recorder; nil outside an idempotent request. A failure to record stops the
    /// operation before the provider is called.
    @TaskLocal public static var recorder: Recorder?

    /// Records `id` when the current request runs under an `Idempotency-Key`.
    static func created(_ id: String) async throws {
        if let recorder { try await recorder.record(id) }
    }
}
