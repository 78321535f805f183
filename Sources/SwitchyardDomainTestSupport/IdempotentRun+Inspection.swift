import SwitchyardCore

/// What tests read of a create under an `Idempotency-Key`.
extension IdempotentRun {
    /// The claim that stopped the work before it stored anything (a replay, another body, a key still
    /// held, a key taken over from an owner that created something); nil when it ran.
    public var turnedAway: IdempotencyClaim? {
        switch next {
        case .replay, .refuse, .run: return key.claim
        case .claim, .answer, .release, .none: return nil
        }
    }

    /// The work's result when it answered its key in its own transactions, leaving nothing to write; nil
    /// otherwise.
    public var answeredWithWork: Result<Value, any Error>? {
        key.state == .answered && next == .none ? result : nil
    }
}
