import Foundation

/// The webhook delivery state machine: a pure value type. A delivery waits `pending` until a worker claims
/// it (`delivering`, leased), then the attempt's answer makes it `succeeded` (a 2xx), `pending` again until
/// the policy's next retry, or `dead` once the retry schedule is used up. A delivery to an endpoint disabled
/// since is `canceled`. `succeeded`, `dead` and `canceled` are final. No I/O, no clock of its own.
public struct WebhookDeliveryMachine: Sendable, Equatable {
    /// Where a delivery stands.
    public enum State: Sendable, Equatable {
        /// Waiting for its due time (`retryAt`, nil: due at once).
        case pending(retryAt: Date?)
        /// Claimed by a worker for this attempt (1 for the first).
        case delivering(attempt: Int)
        case succeeded
        case dead
        case canceled

        /// Whether nothing moves the delivery any more.
        public var isFinal: Bool {
            switch self {
            case .succeeded, .dead, .canceled: return true
            case .pending, .delivering: return false
            }
        }

        /// The stored status.
        public var status: WebhookDelivery.Status {
            switch self {
            case .pending, .delivering: return .pending
            case .succeeded: return .succeeded
            case .dead: return .dead
            case .canceled: return .canceled
            }
        }
    }

    /// Something that happened to the delivery.
    public enum Event: Sendable, Equatable {
        /// A worker claimed it; `endpointEnabled` tells whether its endpoint still takes events.
        case claimed(endpointEnabled: Bool)
        /// The claimed attempt ended; `succeeded` when the endpoint answered 2xx.
        case attemptFinished(succeeded: Bool)
        /// The worker's lease ran out without a recorded attempt (the worker died): due again.
        case leaseExpired
    }

    /// What the caller must do next.
    public enum Action: Sendable, Equatable {
        /// Post the event to the endpoint as this attempt.
        case send(attempt: Int)
        /// Try again at this time.
        case retry(at: Date)
        /// Give up: the delivery is dead-lettered (a tenant may replay it).
        case deadLetter
    }

    public private(set) var state: State
    /// Attempts made so far (claims count as attempts).
    public private(set) var attempts: Int
    /// The policy's retry schedule.
    public let policy: PlatformPolicy.Webhooks

    public init(state: State, attempts: Int, policy: PlatformPolicy.Webhooks) {
        self.state = state
        self.attempts = attempts
        self.policy = policy
    }

    /// A claimed delivery, as its worker holds it.
    public init(claim: ClaimedDelivery, policy: PlatformPolicy.Webhooks) {
        self.init(state: .delivering(attempt: claim.attemptNumber), attempts: claim.attemptNumber, policy: policy)
    }

    /// Applies an event at `time`; returns the actions. A refused event changes nothing and returns none.
    public mutating func handle(_ event: Event, at time: Date) -> [Action] {
        switch (state, event) {
        case (.pending, .claimed(let enabled)):
            guard enabled else {
                state = .canceled
                return []
            }
            attempts += 1
            state = .delivering(attempt: attempts)
            return [.send(attempt: attempts)]
        case (.delivering, .attemptFinished(let succeeded)):
            if succeeded {
                state = .succeeded
                return []
            }
            guard let retryAt = policy.retryAt(afterAttempts: attempts, now: time) else {
                state = .dead
                return [.deadLetter]
            }
            state = .pending(retryAt: retryAt)
            return [.retry(at: retryAt)]
        case (.delivering, .leaseExpired):
            state = .pending(retryAt: nil)
            return []
        default:
            return []
        }
    }
}

extension WebhookDeliveryMachine.Action {
    /// The time of a retry, if this is one.
    public var retryAt: Date? {
        if case .retry(let at) = self { return at }
        return nil
    }
}
