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
            if !countries.isEmpty && !countries.contains(payment.country) { return false }
            if !currencies.isEmpty && !currencies.contains(payment.currency) { return false }
            if !methods.isEmpty && !methods.contains(payment.method) { return false }
            if let minAmount, payment.amount < minAmount { return false }
            if let maxAmount, payment.amount > maxAmount { return false }
            return true
        }
    }

    public var id: UUID
    /// A name for people; shown in routing decisions.
    public var name: String
    public var match: Match
    /// Provider account ids, tried in order.
    public var accounts: [UUID]

    public init(id: UUID, name: String, match: Match, accounts: [UUID]) {
        self.id = id
        self.name = name
        self.match = match
        self.accounts = accounts
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
