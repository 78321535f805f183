import Foundation
import ProviderKit

/// A session handed to a merchant's app for a provider's mobile SDK — Citcon's client and charge
/// tokens, Worldline's client session, Antom's payment and vaulting sessions, Sips In-App's init — seen
/// the same way whatever the provider: who it belongs to, until when it is usable, and where it stands.
public struct ClientSession: Sendable, Equatable {
    /// What the session is for.
    public enum Owner: Sendable, Equatable {
        /// Paying a payment.
        case payment(String)
        /// Storing a credential for a customer (`pm_…`).
        case credential(id: String, customer: String)
    }

    /// Where a session stands.
    public enum Status: String, Sendable {
        /// Usable by the app now.
        case live
        /// Past the provider's expiry: refused with `session_expired`.
        case expired
    }

    public var owner: Owner
    public var pluginId: String?
    public var accountId: UUID?
    /// What the app is given (`next_action`).
    public var action: NextAction
    public var status: Status

    /// The session of a payment waiting for the customer's app, if it has one.
    public static func of(_ payment: Payment, pluginId: String?, now: Date) -> ClientSession? {
        guard let machine = ClientSessionMachine(payment: payment), machine.waiting else { return nil }
        return ClientSession(
            owner: .payment(payment.id), pluginId: pluginId, accountId: payment.providerAccountId,
            action: machine.action, status: status(machine.state(at: now)))
    }

    /// The vaulting session of a pending credential, if it has one.
    public static func of(_ credential: StoredPaymentMethod, now: Date) -> ClientSession? {
        guard credential.status == .pending, let action = credential.session else { return nil }
        let machine = ClientSessionMachine(start: credential.createdAt, action: action)
        return ClientSession(
            owner: .credential(id: credential.id, customer: credential.customerId), pluginId: credential.pluginId,
            accountId: credential.accountId, action: action, status: status(machine.state(at: now)))
    }

    /// What the app sees of a session in `state`: usable until the provider's expiry.
    static func status(_ state: ClientSessionMachine.State) -> Status {
        switch state {
        case .issued, .halfLifeDue: return .live
        case .expired, .swept, .horizonReached, .closed: return .expired
        }
    }

    /// Live until the provider's expiry (a session without one stays live while its owner waits).
    public static func status(of action: NextAction, at now: Date) -> Status {
        status(ClientSessionMachine(start: now, action: action).state(at: now))
    }

    /// Whether a new session may replace this one (see ``NextAction/renewable``).
    public var renewable: Bool { action.renewable == true }

    /// The session if it is live; otherwise `session_expired` (410).
    public func requireLive() throws -> ClientSession {
        guard status == .live else { throw CoreError.sessionExpired(renewable: renewable) }
        return self
    }
}

extension PaymentRecord {
    /// The payment's client session at `now`, if it waits for the customer's app.
    public func session(at now: Date) -> ClientSession? {
        ClientSession.of(payment, pluginId: lastAttempt?.pluginId, now: now)
    }
}

extension CoreError {
    /// A client session past its provider's expiry.
    public static func sessionExpired(renewable: Bool) -> CoreError {
        CoreError(
            .sessionExpired,
            renewable
                ? "the client session expired; renew it with POST /v1/payments/{id}/session"
                : "the client session expired; create a new payment")
    }
}
