import Foundation

extension RoutingDecision {
    /// One account as ranked for a payment: its estimated authorisation rate and bound, its fee for the
    /// payment's amount and why it stands where it does.
    public struct Rank: Codable, Sendable, Equatable {
        public var accountId: UUID
        /// 1 for the account tried first; nil for an account that is not tried (its breaker is open).
        public var position: Int?
        /// Observed authorisation rate (0…1), nil without answers.
        public var estimatedRate: Double?
        /// Definite answers the estimate rests on.
        public var samples: Int
        /// The rate's confidence interval, nil without answers.
        public var lowerBound: Double?
        public var upperBound: Double?
        /// The account's fee for this payment in minor units, nil without a fee model for the currency.
        public var fee: Int64?
        public var reason: String

        public init(
            accountId: UUID, position: Int?, estimatedRate: Double? = nil, samples: Int = 0, lowerBound: Double? = nil,
            upperBound: Double? = nil, fee: Int64? = nil, reason: String
        ) {
            self.accountId = accountId
            self.position = position
            self.estimatedRate = estimatedRate
            self.samples = samples
            self.lowerBound = lowerBound
            self.upperBound = upperBound
            self.fee = fee
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey {
            case accountId = "account_id"
            case position
            case estimatedRate = "estimated_rate"
            case samples
            case lowerBound = "lower_bound"
            case upperBound = "upper_bound"
            case fee, reason
        }

        /// Encodes absent values as `null`, so every entry has the same keys, and the id in lower case
        /// like every id of the API.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(accountId.uuidString.lowercased(), forKey: .accountId)
            try c.encode(position, forKey: .position)
            try c.encode(estimatedRate, forKey: .estimatedRate)
            try c.encode(samples, forKey: .samples)
            try c.encode(lowerBound, forKey: .lowerBound)
            try c.encode(upperBound, forKey: .upperBound)
            try c.encode(fee, forKey: .fee)
            try c.encode(reason, forKey: .reason)
        }
    }
}
