import Foundation
import ProviderKit

/// A customer's stored payment credential: a provider token (EasySafePay agreement, vaulted card) owned by
/// one tenant's customer and usable only with the provider account that issued it.
///
/// It starts `pending` when Switchyard asks the provider for one (a payment with `save_payment_method`, a
/// vaulting session), becomes `active` when the provider reports the token, and ends `revoked`, `failed`
/// or `expired`. The token itself is sealed at rest and never leaves the service except to the plugin.
public struct StoredPaymentMethod: Codable, Sendable, Equatable {
    /// Where the credential stands.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case pending
        case active
        case revoked
        case failed
        case expired
    }

    /// `pm_…`.
    public var id: String
    public var tenantId: UUID
    /// The merchant's customer reference.
    public var customerId: String
    /// The provider account that issued (or will issue) the token.
    public var accountId: UUID
    public var pluginId: String
    /// `wallet_agreement` or `card`.
    public var kind: String
    public var status: Status
    /// The value the provider echoes to tie its notification to this credential (Antom `authState`, or the
    /// vaulting request id).
    public var correlationId: String
    /// The provider's token, in memory only (sealed in the database).
    public var token: String?
    /// The provider's payment-method type (`GCASH`, `CARD`).
    public var paymentMethodType: String?
    /// What may be shown: brand, last four, masked number, expiry.
    public var display: CredentialDisplay?
    /// The vaulting session handed to the app, while the credential is pending.
    public var session: NextAction?
    /// The payment that asked for the credential, if any.
    public var originPaymentId: String?
    public var failureCode: String?
    public var failureMessage: String?
    /// When the token stops being usable, if known.
    public var expiresAt: Date?
    /// The merchant's key-value pairs, set when the merchant starts its vaulting (``Metadata``).
    public var metadata: Metadata = .empty
    /// The merchant's free-text description (`description` in the API), set with the metadata.
    public var merchantDescription: String?
    /// Its account's mode (``Livemode``) when it was created.
    public var livemode = false
    public var createdAt: Date
    public var updatedAt: Date

    /// Creates a pending credential.
    public init(
        id: String, tenantId: UUID, customerId: String, accountId: UUID, pluginId: String, kind: String,
        correlationId: String, originPaymentId: String? = nil, createdAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.customerId = customerId
        self.accountId = accountId
        self.pluginId = pluginId
        self.kind = kind
        self.status = .pending
        self.correlationId = correlationId
        self.originPaymentId = originPaymentId
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// Whether a payment may use it now.
    public func isUsable(at now: Date) -> Bool {
        isActive(at: now) && token != nil
    }

    /// Whether it is active and not expired at `now`, as a listed credential (read without its token) can
    /// tell.
    public func isActive(at now: Date) -> Bool {
        status == .active && (expiresAt.map { $0 > now } ?? true)
    }

    /// The method name a payment with this credential carries (`card`, or the wallet in lower case).
    public var paymentMethodName: String {
        kind == "card" ? "card" : (paymentMethodType?.lowercased() ?? kind)
    }

    /// Applies what the provider reported (see ``StoredCredentialMachine``). A revoked or failed credential
    /// never becomes active again, and an active one is only left for `revoked`.
    public mutating func apply(_ event: CredentialEvent, at now: Date) {
        _ = StoredCredentialMachine.apply(.providerReported(event), to: &self, at: now)
    }
}
