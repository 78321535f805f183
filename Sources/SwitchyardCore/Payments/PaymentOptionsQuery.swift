/// A merchant's question of which methods a payment could use, validated like a payment's fields.
public struct PaymentOptionsQuery: Sendable, Equatable {
    /// In minor units of `currency`.
    public var amount: Int64
    public var currency: String
    public var country: String
    /// The merchant's customer the payment would be for, if known.
    public var customerId: String?

    /// Validates the fields as ``NewPayment`` does; throws ``CoreError`` with a stable code for the first
    /// problem found.
    public init(amount: Int64, currency: String, country: String, customerId: String? = nil) throws {
        try NewPayment.validate(amount: amount, currency: currency, country: country)
        try NewPayment.validate(customerId: customerId)
        self.amount = amount
        self.currency = currency
        self.country = country
        self.customerId = customerId
    }
}
