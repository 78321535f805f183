import Foundation
import ProviderKit

/// The stored credential state machine: a pure value type. A credential starts `pending` (a payment that
/// saves it, a vaulting session), becomes `active` when the provider reports its token, and ends `failed`,
/// `revoked` or `expired`. `revoked` and `failed` are final; an `expired` credential only learns a late
/// token report or a revocation. No I/O, no clock of its own.
public struct StoredCredentialMachine: Sendable, Equatable {
    /// Something that happened to the credential.
    public enum Event: Sendable, Equatable {
        /// The provider answered the request for a vaulting session.
        case sessionRequested(Outcome)
        /// The provider reported the credential (a verified notification or a vaulting inquiry).
        case providerReported(CredentialEvent)
        /// The merchant revoked it; `provider` is what the provider's revocation answered (nil: not asked).
        case merchantRevoked(provider: RevokeCredentialResult?)
        /// The sweeper found it still pending: its vaulting session ended (`sessionEnded`), or the payment
        /// that asked for it went on at another account.
        case abandoned(sessionEnded: Bool)
    }

    /// What the caller must do next.
    public enum Action: Sendable, Equatable {
        /// The credential moved to this status: its webhook event goes out with the change.
        case announce(StoredPaymentMethod.Status)
        /// Tell the caller the provider could not be reached (nothing was set up there).
        case reportUnreachable
    }

    public private(set) var credential: StoredPaymentMethod

    public init(credential: StoredPaymentMethod) {
        self.credential = credential
    }

    /// Applies an event at `time`; returns the actions. A refused event changes nothing and returns none.
    public mutating func handle(_ event: Event, at time: Date) -> [Action] {
        let before = credential
        var actions: [Action] = []
        switch event {
        case .sessionRequested(let outcome):
            actions = sessionRequested(outcome)
        case .providerReported(let report):
            providerReported(report)
        case .merchantRevoked(let provider):
            guard credential.status != .revoked else { return [] }
            credential.status = .revoked
            credential.session = nil
            credential.failureCode = "revoked_by_merchant"
            credential.failureMessage = PaymentService.revocationMessage(provider)
        case .abandoned(let sessionEnded):
            guard credential.status == .pending else { return [] }
            credential.status = .expired
            credential.session = nil
            credential.failureCode = sessionEnded ? "session_expired" : "abandoned"
            credential.failureMessage =
                sessionEnded
                ? "the vaulting session expired before the customer finished"
                : "the payment that asked for it went on without this provider account"
        }
        if credential != before || !actions.isEmpty { credential.updatedAt = time }
        if credential.status != before.status { actions.insert(.announce(credential.status), at: 0) }
        return actions
    }

    private mutating func sessionRequested(_ outcome: Outcome) -> [Action] {
        guard credential.status == .pending, credential.session == nil else { return [] }
        switch outcome.kind {
        case .pending where outcome.nextAction != nil:
            credential.session = outcome.nextAction
        case .notSent, .authExpired:
            credential.status = .failed
            credential.failureCode = outcome.code ?? "provider_unreachable"
            credential.failureMessage = outcome.message
            return [.reportUnreachable]
        case .declined:
            credential.status = .failed
            credential.failureCode = outcome.code ?? "declined"
            credential.failureMessage = outcome.message
        default:
            // Unknown: the session may exist at the provider; an inquiry (sync) can tell later.
            credential.failureCode = outcome.code
        }
        return []
    }

    /// A revoked or failed credential never becomes active again, and an active one is only left for
    /// `revoked`.
    private mutating func providerReported(_ event: CredentialEvent) {
        switch (credential.status, event.kind) {
        case (.pending, .created), (.expired, .created):
            credential.status = .active
            credential.token = event.token ?? credential.token
            credential.session = nil
        case (.pending, .failed):
            credential.status = .failed
            credential.session = nil
        case (.pending, .revoked), (.active, .revoked), (.expired, .revoked):
            credential.status = .revoked
            credential.session = nil
        default:
            return
        }
        credential.paymentMethodType = event.paymentMethodType ?? credential.paymentMethodType
        credential.display = event.display ?? credential.display
        credential.expiresAt = event.expiresAt ?? credential.expiresAt
        credential.failureCode = event.code ?? credential.failureCode
        credential.failureMessage = event.message ?? credential.failureMessage
    }
}

extension StoredCredentialMachine {
    /// Applies `event` to `credential` in place; returns the actions.
    public static func apply(_ event: Event, to credential: inout StoredPaymentMethod, at time: Date) -> [Action] {
        var machine = StoredCredentialMachine(credential: credential)
        let actions = machine.handle(event, at: time)
        credential = machine.credential
        return actions
    }
}
