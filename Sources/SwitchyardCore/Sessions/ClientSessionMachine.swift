import Foundation
import ProviderKit

/// The client session state machine: a pure value type over one session handed to a merchant's app
/// (see ``ClientSession``), with the time injected. A session is `issued` while its owner waits; past half
/// its life it is due one sync (``SessionHalfLife``), past the provider's expiry it is `expired` (the app is
/// refused with `session_expired`) and due a sweep, then `swept`, swept again `retryAfter` later while
/// the horizon lasts. Past the horizon it is swept a last time (`horizonReached`) and, still waiting then,
/// its owner is flagged for manual review. A renewal (where the provider allows one) issues a new session;
/// once the owner stops waiting the session is `closed`. No I/O, no clock of its own.
public struct ClientSessionMachine: Sendable, Equatable {
    /// Where the session stands at a given time.
    public enum State: Sendable, Equatable {
        /// Usable by the app; before half its life, or synced since that point.
        case issued
        /// Usable, past half its life and not synced since: the provider is asked once.
        case halfLifeDue
        /// Past the provider's expiry and not swept since (or a retry of the sweep is due).
        case expired
        /// Past the expiry and swept; nothing is due now.
        case swept
        /// Past the horizon after the expiry and not swept since: a last sweep is due, then a person looks.
        case horizonReached
        /// The owner no longer waits for the app.
        case closed
    }

    /// Something that happened to the session.
    public enum Event: Sendable, Equatable {
        /// The app asks for the session.
        case opened
        /// The sweeper looks at the session.
        case swept
        /// The merchant asks for a new session, and the provider issued `action` (nil: not asked yet).
        case renewed(NextAction?)
        /// The owner stopped waiting (the payment or credential moved on).
        case ownerSettled
    }

    /// What the caller must do next.
    public enum Action: Sendable, Equatable {
        /// Hand the session's action to the app.
        case handOut(NextAction)
        /// Ask the provider about the owner now (its notification may have been lost).
        case sync
        /// Ask the provider for a new session.
        case requestRenewal
        /// Refuse the request for this reason.
        case refuse(Refusal)
        /// Flag the owner for manual review if the sync leaves it still waiting: nothing sweeps it again.
        case flagForReview
    }

    /// Why a request about the session is refused.
    public enum Refusal: Sendable, Equatable {
        /// The owner no longer waits for the app: there is no session.
        case noSession
        /// Past the provider's expiry (`session_expired`); `renewable` tells whether a renewal may replace it.
        case expired(renewable: Bool)
        /// The provider binds the session to an order: it cannot be renewed.
        case notRenewable
    }

    /// When the owner started waiting (the half-life counts from there).
    public let start: Date
    public private(set) var action: NextAction
    /// When the provider was last asked about the owner for this session (a half-life sync or a sweep).
    public private(set) var syncedAt: Date?
    public private(set) var waiting: Bool
    /// How long after a sweep past the expiry the session is swept again, and until how long past it.
    public let retryAfter: TimeInterval
    public let horizon: TimeInterval

    public init(
        start: Date, action: NextAction, syncedAt: Date? = nil, waiting: Bool = true, retryAfter: TimeInterval = 5,
        horizon: TimeInterval = 86_400
    ) {
        self.start = start
        self.action = action
        self.syncedAt = syncedAt
        self.waiting = waiting
        self.retryAfter = retryAfter
        self.horizon = horizon
    }

    /// The session of a payment (waiting while it requires the customer's action), or nil when it has none.
    public init?(payment: Payment, retryAfter: TimeInterval = 5, horizon: TimeInterval = 86_400) {
        guard let action = payment.nextAction else { return nil }
        self.init(
            start: payment.createdAt, action: action, waiting: payment.status == .requiresAction,
            retryAfter: retryAfter, horizon: horizon)
    }

    /// Where the session stands at `now`.
    public func state(at now: Date) -> State {
        guard waiting else { return .closed }
        guard let expiresAt = action.expiresAt else { return .issued }
        if now < expiresAt {
            let due = SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: syncedAt, now: now)
            return due ? .halfLifeDue : .issued
        }
        let end = expiresAt.addingTimeInterval(horizon)
        if now >= end { return syncedAt.map { $0 >= end } == true ? .swept : .horizonReached }
        guard let last = syncedAt, last >= expiresAt else { return .expired }
        return last.addingTimeInterval(retryAfter) <= now ? .expired : .swept
    }

    /// Applies an event at `time`; returns the actions.
    public mutating func handle(_ event: Event, at time: Date) -> [Action] {
        let state = state(at: time)
        switch event {
        case .opened:
            switch state {
            case .closed: return [.refuse(.noSession)]
            case .expired, .swept, .horizonReached: return [.refuse(.expired(renewable: action.renewable == true))]
            case .issued, .halfLifeDue: return [.handOut(action)]
            }
        case .swept:
            switch state {
            case .halfLifeDue, .expired:
                syncedAt = time
                return [.sync]
            case .horizonReached:
                syncedAt = time
                return [.sync, .flagForReview]
            case .issued, .swept, .closed:
                return []
            }
        case .renewed(let renewal):
            guard state != .closed else { return [.refuse(.noSession)] }
            guard action.renewable == true else { return [.refuse(.notRenewable)] }
            guard let renewal else { return [.requestRenewal] }
            action = renewal
            syncedAt = nil
            return [.handOut(renewal)]
        case .ownerSettled:
            waiting = false
            return []
        }
    }
}
