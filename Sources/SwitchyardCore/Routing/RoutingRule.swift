import Foundation

/// One rule of a tenant's routing: a match on the payment and an ordered list of provider accounts.
public struct RoutingRule: Codable, Sendable, Equatable {
    /// What a payment must look like for the rule to apply. Empty lists and absent bounds match anything.
    public struct Match: Codable, Sendable, Equatable {
        public var countries: [String]
        public var currencies: [String]
        public var methods: [String]
        /// Inclusive bounds in minor units of the payment's currency.
        public var minAmount: Int64?
        public var maxAmount: Int64?

        public init(
            countries: [String] = [], currencies: [String] = [], methods: [String] = [], minAmount: Int64? = nil,
            maxAmount: Int64? = nil
        ) {
            self.countries = countries
            self.currencies = currencies
            self.methods = methods
            self.minAmount = minAmount
            self.maxAmount = maxAmount
        }

        /// Whether a payment with these properties satisfies the match.
        public func matches(_ payment: PaymentDescription) -> Bool {
            mismatch(payment) == nil
        }
    }

    public var id: UUID
    /// A name for people; shown in routing decisions.
    public var name: String
    public var match: Match
    /// Provider account ids, tried in order.
    public var accounts: [UUID]
    /// Optional volume split: one non-negative weight per account (same order). The first account is
    /// drawn by weight, deterministically per payment; the others follow as fallbacks. An account with
    /// weight 0 is only ever a fallback.
    public var weights: [Int]?
    /// How the accounts are ordered for a payment.
    public var strategy: RoutingStrategy
    /// Adaptive only: how many percentage points of estimated authorisation rate a cheaper account may
    /// lose against the best one and still go first.
    public var maxRateLoss: Double?

    /// The largest weight, and the largest sum of a rule's weights.
    public static let maximumWeight = 1_000_000

    public init(
        id: UUID, name: String, match: Match, accounts: [UUID], weights: [Int]? = nil,
        strategy: RoutingStrategy? = nil, maxRateLoss: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.match = match
        self.accounts = accounts
        self.weights = weights
        self.strategy = strategy ?? RoutingStrategy.implied(weights: weights)
        self.maxRateLoss = maxRateLoss
    }

    enum CodingKeys: String, CodingKey {
        case id, name, match, accounts, weights, strategy, maxRateLoss
    }

    /// Decodes rules stored before strategies existed too: no strategy means `weighted` with weights,
    /// else `ordered`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        match = try c.decode(Match.self, forKey: .match)
        accounts = try c.decode([UUID].self, forKey: .accounts)
        weights = try c.decodeIfPresent([Int].self, forKey: .weights)
        strategy =
            try c.decodeIfPresent(RoutingStrategy.self, forKey: .strategy) ?? RoutingStrategy.implied(weights: weights)
        maxRateLoss = try c.decodeIfPresent(Double.self, forKey: .maxRateLoss)
    }
}

/// How a routing rule orders its accounts.
public enum RoutingStrategy: String, Codable, Sendable, Equatable, CaseIterable {
    /// In the rule's order.
    case ordered
    /// The first account drawn by the rule's weights, deterministically per payment.
    case weighted
    /// By estimated authorisation rate with a confidence bound, with an exploration share and an
    /// optional cost step.
    case adaptive

    /// The strategy of a rule that names none: `weighted` when it has weights, else `ordered`.
    public static func implied(weights: [Int]?) -> RoutingStrategy {
        weights == nil ? .ordered : .weighted
    }
}

/// The properties of a payment that routing looks at.
public struct PaymentDescription: Codable, Sendable, Equatable {
    public var amount: Int64
    public var currency: String
    public var country: String
    public var method: String

    public init(amount: Int64, currency: String, country: String, method: String) {
        self.amount = amount
        self.currency = currency
        self.country = country
        self.method = method
    }
}

/// A tenant's routing rules as one versioned whole.
public struct RoutingConfiguration: Codable, Sendable, Equatable {
    /// Increases by one with every write; 0 before the first.
    public var version: Int
    public var rules: [RoutingRule]
    /// The guarded rollout running next to these rules, if any: its draft takes a share of the traffic.
    public var rollout: RoutingRollout?

    public init(version: Int, rules: [RoutingRule], rollout: RoutingRollout? = nil) {
        self.version = version
        self.rules = rules
        self.rollout = rollout
    }
}

/// One earlier version of a tenant's routing.
public struct RoutingVersion: Codable, Sendable, Equatable {
    public var version: Int
    /// Who wrote it (`operator` or `api_key:<prefix>`).
    public var actor: String
    public var createdAt: Date
    public var rules: [RoutingRule]

    public init(version: Int, actor: String, createdAt: Date, rules: [RoutingRule]) {
        self.version = version
        self.actor = actor
        self.createdAt = createdAt
        self.rules = rules
    }
}
