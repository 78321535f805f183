import Foundation

/// An `Idempotency-Key` that a payment create claims inside its own first transaction (with the payment
/// and its first attempt) and answers inside its last one (with the attempt's outcome), instead of in
/// transactions of its own.
///
/// The HTTP layer makes one per keyed create and binds it to ``current`` while the create runs; the
/// create reports through ``stage`` how far it got, so the caller knows what is left to do with the key.
public final class IdempotentCreate: Sendable {
    /// How far the create got with its key.
    public enum Stage: Sendable, Equatable {
        /// The key was not claimed yet (the create failed before storing anything).
        case unclaimed
        /// The key was claimed with this result and the payment stored; no response is stored yet.
        case claimed(IdempotencyClaim)
        /// The response was stored for the key, in the same transaction as the payment's outcome.
        case answered
    }

    /// The create running under a key in the current task, if any.
    @TaskLocal public static var current: IdempotentCreate?

    public let tenant: UUID
    /// The key as stored (scoped by method and route).
    public let key: String
    public let requestHash: String
    /// A random id naming this request as the key's owner.
    public let owner: String
    /// How long the claim holds the key, in seconds.
    public let lease: TimeInterval
    /// The response to store for the key: the created payment, or the merchant's error.
    public let respond: @Sendable (Result<PaymentRecord, CoreError>) throws -> (status: Int, body: Data)
    private let state = LockedValue(Stage.unclaimed)

    public init(
        tenant: UUID, key: String, requestHash: String, owner: String, lease: TimeInterval,
        respond: @escaping @Sendable (Result<PaymentRecord, CoreError>) throws -> (status: Int, body: Data)
    ) {
        self.tenant = tenant
        self.key = key
        self.requestHash = requestHash
        self.owner = owner
        self.lease = lease
        self.respond = respond
    }

    /// How far the create got.
    public var stage: Stage { state.value }

    /// Records how far the create got (the store reports a claim, the create its answer).
    public func reached(_ stage: Stage) { state.value = stage }

    /// The answer to store for `result`.
    func answer(_ result: Result<PaymentRecord, CoreError>) throws -> IdempotentAnswer {
        let (status, body) = try respond(result)
        return IdempotentAnswer(key: key, owner: owner, status: status, body: body)
    }
}

/// The response a request stores for its `Idempotency-Key` when it ends.
public struct IdempotentAnswer: Sendable {
    public var key: String
    public var owner: String
    public var status: Int
    public var body: Data
}

/// Thrown by a create whose key may not be used to create a payment now (a replay, another body, a
/// request still holding it, or a payment an earlier owner already created): nothing was stored and the
/// caller answers from `claim`.
public struct IdempotencyInterruption: Error, Sendable {
    public var claim: IdempotencyClaim
}

/// A value behind a lock, readable and writable from any task.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
