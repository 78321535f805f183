/// What a plugin declares about one payment method: where and in what it can be paid, within which
/// amounts, whether it can be stored or captured later, and what the app needs to pay with it.
///
/// Part of the manifest's optional `methodSupport`; a plugin that declares none is described by its
/// manifest-wide `methods`, `countries` and `currencies` alone (see ``PluginManifest/support(for:)``).
public struct MethodSupport: Codable, Sendable, Equatable {
    /// The method, lower case, one of the manifest's `methods`.
    public var method: String
    /// ISO 3166-1 alpha-2 countries for this method; empty means the manifest's.
    public var countries: [String]
    /// ISO 4217 currencies for this method; empty means the manifest's.
    public var currencies: [String]
    /// Inclusive amount bounds in minor units, by currency; a currency not listed has no bounds.
    public var amountLimits: [String: AmountLimit]
    /// Whether a payment with this method can set up a stored payment method for later payments.
    public var storable: Bool
    /// Whether capture can be delayed (`capture_mode: manual`).
    public var delayedCapture: Bool
    /// Whether a payment with this method can only be made with a stored payment method of the customer
    /// (a card vaulted first, say), never with a new session; false when not declared.
    public var requiresStoredMethod: Bool
    /// What the app does to pay with this method, nil when not declared.
    public var app: AppIntegration?

    public init(
        method: String, countries: [String] = [], currencies: [String] = [],
        amountLimits: [String: AmountLimit] = [:], storable: Bool, delayedCapture: Bool,
        requiresStoredMethod: Bool = false, app: AppIntegration? = nil
    ) {
        self.method = method
        self.countries = countries
        self.currencies = currencies
        self.amountLimits = amountLimits
        self.storable = storable
        self.delayedCapture = delayedCapture
        self.requiresStoredMethod = requiresStoredMethod
        self.app = app
    }

    enum CodingKeys: String, CodingKey {
        case method, countries, currencies, amountLimits, storable, delayedCapture, requiresStoredMethod, app
    }

    /// Decodes a declaration; `requiresStoredMethod` is absent from manifests of plugins built before it
    /// existed, and then false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        countries = try c.decode([String].self, forKey: .countries)
        currencies = try c.decode([String].self, forKey: .currencies)
        amountLimits = try c.decode([String: AmountLimit].self, forKey: .amountLimits)
        storable = try c.decode(Bool.self, forKey: .storable)
        delayedCapture = try c.decode(Bool.self, forKey: .delayedCapture)
        requiresStoredMethod = try c.decodeIfPresent(Bool.self, forKey: .requiresStoredMethod) ?? false
        app = try c.decodeIfPresent(AppIntegration.self, forKey: .app)
    }
}

/// Inclusive bounds of a payment's amount in minor units; an absent bound does not limit.
public struct AmountLimit: Codable, Sendable, Equatable {
    public var min: Int64?
    public var max: Int64?

    public init(min: Int64? = nil, max: Int64? = nil) {
        self.min = min
        self.max = max
    }
}

/// How an app pays with a method: the kind of flow, the SDK, the next action it receives and the fields
/// it sends back in `payment_data`.
public struct AppIntegration: Codable, Sendable, Equatable {
    /// The kind of flow: `sdk_session` (the app opens the provider's SDK with session data),
    /// `encrypted_card` (the app collects the card and encrypts it for the provider) or `redirect`.
    public var flow: String
    /// The provider's app SDK, e.g. `OnlinePaymentsKit`; nil for a plain redirect.
    public var sdk: String?
    /// The `next_action.type` the payment answers with.
    public var nextAction: String
    /// The fields of the next action's data the app hands to the SDK.
    public var sessionFields: [String]
    /// The fields the app sends back in `payment_data` to complete the payment (none when the provider
    /// notifies the outcome itself).
    public var paymentData: [String]

    public init(flow: String, sdk: String?, nextAction: String, sessionFields: [String], paymentData: [String] = []) {
        self.flow = flow
        self.sdk = sdk
        self.nextAction = nextAction
        self.sessionFields = sessionFields
        self.paymentData = paymentData
    }
}
