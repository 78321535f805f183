import Foundation

/// What a payment create under an `Idempotency-Key` did, with its key and with the payment (see
/// ``PaymentService/create(tenant:_:idempotency:)``). The key is claimed in the create's first
/// transaction and answered in its last one, so the caller stores an answer only for what is left open.
public enum IdempotentCreation: Sendable {
    /// The key's claim did not let the create go on (a replay, another body, a key still held, a payment
    /// an earlier owner created): nothing was stored, and the caller answers from the claim.
    case interrupted(IdempotencyClaim)
    /// The create failed before storing anything; the key was not claimed.
    case unclaimed(any Error)
    /// The key was claimed as `claim` says (``IdempotencyClaim/proceed``, or a takeover of a key under
    /// which nothing was created) and the payment stored, but no answer is stored for the key yet.
    case claimed(IdempotencyClaim, Result<PaymentRecord, any Error>)
    /// The answer was stored for the key in the same transaction as the payment's outcome.
    case answered(Result<PaymentRecord, any Error>)
}
