import Foundation

/// What a request may do with an `Idempotency-Key` it tried to claim under a lease.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new and now leased to this request.
    case proceed
    /// The key's previous owner let its lease run out without storing a response; the key is now leased
    /// to this request, which must resume: `resourceId` is what the previous owner recorded as created
    /// (a payment or refund id), nil when it recorded nothing.
    case resume(resourceId: String?)
    /// The same request completed before: replay what it answered.
    case replay(IdempotentOutcome)
    /// The key was used with a different request body.
    case mismatch
    /// Another request holds the key; its lease runs until `until` (nil when unknown).
    case held(until: Date?)
}
