#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A customer's stored credential (a provider token), as the host hands it to a plugin for a payment.
///
/// The token is the provider's secret reference to the customer's wallet agreement or vaulted card; the
/// host keeps it encrypted and passes it only to the plugin of the account that issued it.
public struct StoredCredential: Codable, Sendable, Equatable {
    /// Switchyard's id of the credential (`pm_…`).
    public var id: String
    /// What the token stands for: `wallet_agreement` or `card`.
    public var kind: String
    /// The provider's token (e.g. Antom's EasySafePay `accessToken`, or a vaulted `cardToken`).
    public var token: String
    /// The provider's payment-method type the token belongs to (e.g. `GCASH`, `CARD`).
    public var paymentMethodType: String?

    /// Creates a credential reference.
    public init(id: String, kind: String, token: String, paymentMethodType: String? = nil) {
        self.id = id
        self.kind = kind
        self.token = token
        self.paymentMethodType = paymentMethodType
    }
}

/// Asks the provider to set up a stored credential together with this payment (e.g. an EasySafePay
/// agreement: the wallet later notifies a token carrying `correlationId` back).
public struct CredentialSetup: Codable, Sendable, Equatable {
    /// A value generated and remembered by Switchyard, sent to the provider (Antom's `authState`) and
    /// echoed in the provider's notification, which ties the new token to the tenant and customer.
    public var correlationId: String
    /// The merchant's customer the credential will belong to.
    public var customerId: String

    /// Creates a setup request.
    public init(correlationId: String, customerId: String) {
        self.correlationId = correlationId
        self.customerId = customerId
    }
}

/// What may be shown about a stored credential: never the token, never a full card number.
public struct CredentialDisplay: Codable, Sendable, Equatable {
    /// Card brand or wallet name (`VISA`, `GCASH`).
    public var brand: String?
    /// Last four digits of a card.
    public var last4: String?
    /// The provider's masked card number (`************0768`).
    public var masked: String?
    /// Expiry month (1–12) of a card.
    public var expiryMonth: Int?
    /// Four-digit expiry year of a card.
    public var expiryYear: Int?
    /// The wallet user's login id as masked by the provider, when it sends one.
    public var account: String?

    /// Creates display details.
    public init(
        brand: String? = nil, last4: String? = nil, masked: String? = nil, expiryMonth: Int? = nil,
        expiryYear: Int? = nil, account: String? = nil
    ) {
        self.brand = brand
        self.last4 = last4
        self.masked = masked
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.account = account
    }
}

/// A change of a stored credential reported by the provider (in a notification or an inquiry).
public struct CredentialEvent: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable {
        /// A token now exists (agreement authorised, card vaulted).
        case created
        /// The token was revoked (by the customer, the wallet or the provider).
        case revoked
        /// Setting up the credential failed definitively.
        case failed
        /// Not decided yet (e.g. vaulting awaiting 3-D Secure).
        case pending
    }

    /// What happened.
    public var kind: Kind
    /// The `correlationId` of the ``CredentialSetup`` or the vaulting id it answers, when the provider
    /// echoes one.
    public var correlationId: String?
    /// `wallet_agreement` or `card`.
    public var credentialKind: String
    /// The provider's token (present for `created`, and for `revoked` when the provider names it).
    public var token: String?
    /// The provider's payment-method type (`GCASH`, `CARD`).
    public var paymentMethodType: String?
    /// Displayable details.
    public var display: CredentialDisplay?
    /// When the credential stops being usable, if the provider says.
    public var expiresAt: Date?
    /// The provider's code, for `failed` and `revoked`.
    public var code: String?
    /// The provider's message, without secrets.
    public var message: String?

    /// Creates an event.
    public init(
        kind: Kind, correlationId: String?, credentialKind: String, token: String? = nil,
        paymentMethodType: String? = nil, display: CredentialDisplay? = nil, expiresAt: Date? = nil,
        code: String? = nil, message: String? = nil
    ) {
        self.kind = kind
        self.correlationId = correlationId
        self.credentialKind = credentialKind
        self.token = token
        self.paymentMethodType = paymentMethodType
        self.display = display
        self.expiresAt = expiresAt
        self.code = code
        self.message = message
    }
}

/// Create a card-vaulting session for the customer's app (e.g. Antom's AMSVaulting).
public struct VaultingSessionRequest: Codable, Sendable, Equatable {
    /// Switchyard's id of this vaulting; the provider's idempotent request id (`vaultingRequestId`) and
    /// the correlation id its notification echoes.
    public var vaultingId: String
    /// The merchant's customer.
    public var customerId: String
    /// Where the provider sends the shopper back after a hosted step (3-D Secure), if any.
    public var returnURL: String?
    /// The merchant's region (ISO 3166 alpha-2), when the provider wants it.
    public var country: String?

    /// Creates a request.
    public init(vaultingId: String, customerId: String, returnURL: String? = nil, country: String? = nil) {
        self.vaultingId = vaultingId
        self.customerId = customerId
        self.returnURL = returnURL
        self.country = country
    }
}

/// The provider's answer to a vaulting-session request.
public struct VaultingSessionResult: Codable, Sendable, Equatable {
    /// `pending` with the session in ``Outcome/nextAction`` (with its expiry), or a failure class.
    public var outcome: Outcome

    /// Creates a result.
    public init(outcome: Outcome) {
        self.outcome = outcome
    }
}

/// Ask the provider what became of a vaulting.
public struct VaultingSyncRequest: Codable, Sendable, Equatable {
    /// Switchyard's id of the vaulting (the provider's `vaultingRequestId`).
    public var vaultingId: String

    /// Creates a request.
    public init(vaultingId: String) {
        self.vaultingId = vaultingId
    }
}

/// The provider's answer to a vaulting inquiry.
public struct VaultingSyncResult: Codable, Sendable, Equatable {
    /// The credential's state as the provider knows it; nil when the inquiry itself failed.
    public var event: CredentialEvent?
    /// Set when the inquiry failed (`notSent` / `unknown` with a code).
    public var failure: Outcome?

    /// Creates a result.
    public init(event: CredentialEvent?, failure: Outcome? = nil) {
        self.event = event
        self.failure = failure
    }
}
