import Foundation

/// The life of one request's `Idempotency-Key`, as a value: every event (what the store answered to a
/// claim, what the request's work ended with, a write on the key that failed) moves it and says what to do
/// next. It does no I/O; ``IdempotencyKeeper`` carries out its actions on the store, and the HTTP layer only
/// maps them to status codes.
///
/// The words are the key's life: a request **claims** the key (a lease held under its owner id), **runs**
/// (afresh, or resuming what an earlier owner whose lease ran out **linked** to the key), and ends by
/// **answering** the key with its outcome, replayed to every later request with the same body, or by
/// **releasing** it: forgotten when nothing was linked to it, kept with its lease ended when something was
/// (a payment created, a refund reserved, a payment the provider may have acted on), so the next retry takes
/// it over and resumes instead of repeating what may have happened. Keys **expire** by the janitor
/// (``IdempotencyKeyMaintenance``), not here.
public struct IdempotencyMachine: Sendable, Equatable {
    /// Where the key stands for this request.
    public enum State: Sendable, Equatable {
        /// Nothing is stored for this request under the key yet.
        case unclaimed
        /// The request holds the key's lease and runs.
        case running
        /// The request's outcome is stored for the key (final).
        case answered
        /// The claim did not let the request run: the key was answered before, is used with another body,
        /// or another request holds it (final).
        case turnedAway(IdempotencyClaim)
        /// The claim is given back (final).
        case released
    }

    /// What happened to the key or to the request's work.
    public enum Event: Sendable, Equatable {
        /// The store answered a claim (made alone, or in the first transaction of the request's work) at `at`.
        case claimed(IdempotencyClaim, at: Date)
        /// The request's work recorded `resourceId` under the key, in the same transaction as the resource.
        case linked(resourceId: String)
        /// The request's work stored its outcome for the key in the same transaction as its last write.
        case answeredWithWork
        /// The request's work ended with `outcome`, which is not stored yet.
        case finished(IdempotentOutcome)
        /// The request's work failed.
        case failed(IdempotentFailure)
        /// A write on the key failed: what it wrote may have landed unseen.
        case writeFailed
    }

    /// What to do next.
    public enum Action: Sendable, Equatable {
        /// Claim the key.
        case claim
        /// Run the request's work: afresh (`takeover` nil), or after taking the key over from an earlier
        /// owner whose lease ran out, which may have done what the request asks (each route says how it
        /// resumes; the takeover names what the earlier owner recorded under the key, if anything).
        case run(takeover: IdempotencyTakeover?)
        /// Answer with the outcome stored for the key, without running anything.
        case replay(IdempotentOutcome)
        /// Refuse the request with `error`; `retryAfter` seconds is when the key may be free (nil: never).
        case refuse(CoreError, retryAfter: Int?)
        /// Store `outcome` for the key.
        case answer(IdempotentOutcome)
        /// Give the claim back, recording `linking` under the key first when it is not nil.
        case release(linking: String?)
        /// Nothing to do on the key: answer or fail as the work did.
        case none
    }

    /// Where the key stands.
    public private(set) var state: State = .unclaimed
    /// What is recorded under the key: by an earlier owner whose lease ran out, or by this request.
    public private(set) var linked: String?
    /// The store's answer to this request's claim, once it claimed the key.
    public private(set) var claim: IdempotencyClaim?
    /// How long a claim holds the key, in seconds: the longest a refused request is told to wait.
    public let lease: TimeInterval
    /// A merchant's error waiting for the claim that lets it be stored as the key's answer.
    private var pendingAnswer: IdempotentOutcome?
    /// What a write still in flight stores, kept to know what to link when the write fails.
    private var storing: IdempotentOutcome?

    /// A key not yet claimed by this request, whose claims hold it for `lease` seconds.
    public init(lease: TimeInterval) {
        self.lease = lease
    }

    /// Whether the key reached a final state for this request.
    public var isFinal: Bool {
        switch state {
        case .unclaimed, .running: return false
        case .answered, .turnedAway, .released: return true
        }
    }

    /// Moves the key by `event`; returns what to do next.
    public mutating func apply(_ event: Event) -> Action {
        switch (state, event) {
        case (.unclaimed, .claimed(let claim, let now)):
            return claimed(claim, at: now)
        case (.unclaimed, .failed(let failure)):
            // Nothing is stored, unless the database went away during the claim's COMMIT.
            guard let error = failure.answer else { return failure.storageLost ? release(linking: nil) : .none }
            pendingAnswer = .failure(error)
            return .claim
        case (.unclaimed, .writeFailed):
            return release(linking: nil)
        case (.running, .linked(let resourceId)):
            linked = resourceId
            return .none
        case (.running, .answeredWithWork):
            state = .answered
            return .none
        case (.running, .finished(let outcome)):
            storing = outcome
            state = .answered
            return .answer(outcome)
        case (.running, .failed(let failure)):
            if let error = failure.answer {
                storing = .failure(error)
                state = .answered
                return .answer(.failure(error))
            }
            if case .possible(let resourceId) = failure.contact { return release(linking: resourceId) }
            return release(linking: nil)
        case (.answered, .writeFailed):
            // The answer may not be stored: what the work answered is linked, so the retry resumes from it.
            return release(linking: storing?.resourceId)
        default:
            return .none
        }
    }

    /// The store's answer to a claim.
    private mutating func claimed(_ claimResult: IdempotencyClaim, at now: Date) -> Action {
        claim = claimResult
        switch claimResult {
        case .proceed:
            state = .running
            if let answer = pendingAnswer { return storeAnswer(answer) }
            return .run(takeover: nil)
        case .resume(let resourceId):
            state = .running
            linked = resourceId
            // A merchant's error is stored unless the earlier owner created something to resume.
            if resourceId == nil, let answer = pendingAnswer { return storeAnswer(answer) }
            return .run(takeover: IdempotencyTakeover(resourceId: resourceId))
        case .replay(let outcome):
            state = .turnedAway(claimResult)
            return .replay(outcome)
        case .mismatch:
            state = .turnedAway(claimResult)
            return .refuse(
                CoreError(.idempotencyKeyReused, "this Idempotency-Key was used with a different request body"),
                retryAfter: nil)
        case .held(let until):
            state = .turnedAway(claimResult)
            let remaining = until.map { $0.timeIntervalSince(now) } ?? lease
            return .refuse(
                CoreError(.idempotencyInProgress, "a request with this Idempotency-Key is still running"),
                retryAfter: Int(min(max(1, remaining.rounded(.up)), max(1, lease.rounded(.up)))))
        }
    }

    private mutating func storeAnswer(_ answer: IdempotentOutcome) -> Action {
        pendingAnswer = nil
        storing = answer
        state = .answered
        return .answer(answer)
    }

    /// Gives the claim back; `linking` is recorded first unless the store has it under the key already.
    private mutating func release(linking: String?) -> Action {
        state = .released
        return .release(linking: linking == linked ? nil : linking)
    }
}

/// A key taken over from a request whose lease ran out.
public struct IdempotencyTakeover: Sendable, Equatable {
    /// What the previous owner recorded under the key (a payment or refund id), if anything.
    public var resourceId: String?

    public init(resourceId: String?) {
        self.resourceId = resourceId
    }
}

/// How a request's work under an `Idempotency-Key` failed, as the machine needs to know it.
public struct IdempotentFailure: Sendable, Equatable {
    /// The merchant's error, stored as the key's answer; nil for a failure of the platform's own (the
    /// database, a plugin, a provider out of reach), after which the same request may succeed.
    public var answer: CoreError?
    /// Whether the work may have reached its provider before it failed (the domain says so).
    public var contact: ProviderContact
    /// Whether the database went away during a write: what it wrote may have landed unseen.
    public var storageLost: Bool

    public init(answer: CoreError?, contact: ProviderContact = .none, storageLost: Bool = false) {
        self.answer = answer
        self.contact = contact
        self.storageLost = storageLost
    }

    /// `error` as a failure: a ``CoreError`` whose code is not transient is the merchant's answer.
    public init(_ error: any Error, contact: ProviderContact = .none) {
        let core = error as? CoreError
        self.init(
            answer: core.flatMap { $0.code.isTransient ? nil : $0 }, contact: contact,
            storageLost: error.isStorageUnavailable)
    }
}

/// Whether a request's work may have reached its provider: the domain knows, the HTTP layer cannot guess.
public enum ProviderContact: Sendable, Equatable {
    /// The provider was not called, or said it did nothing (nothing was sent).
    case none
    /// The provider may have acted on `resourceId` (the payment an operation was sent for): a retry must
    /// answer that resource as it is now instead of repeating the operation.
    case possible(resourceId: String)
}
