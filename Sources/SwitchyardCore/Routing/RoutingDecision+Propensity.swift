import Foundation

extension RoutingDecision {
    /// The probability (0…1) with which the matched rule puts an account first, i.e. chooses it for the
    /// payment's first attempt: 1 for the first account of an ordered rule, the weight share under a
    /// weighted rule, and for an adaptive rule the greedy choice's 1 − exploration share plus the
    /// exploration share spread evenly over the accounts an exploration draw may pick.
    public struct Propensity: Codable, Sendable, Equatable {
        public var accountId: UUID
        public var probability: Double

        public init(accountId: UUID, probability: Double) {
            self.accountId = accountId
            self.probability = probability
        }

        enum CodingKeys: String, CodingKey {
            case accountId = "account_id"
            case probability
        }

        /// Encodes the id in lower case like every id of the API.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(accountId.uuidString.lowercased(), forKey: .accountId)
            try c.encode(probability, forKey: .probability)
        }
    }

    /// The probability with which `account` goes first, 0 when it never does.
    public func propensity(of account: UUID) -> Double {
        propensities.first { $0.accountId == account }?.probability ?? 0
    }
}

extension PaymentRouter {
    /// The weight share of each suitable account with a positive weight (weights clamped as the draw
    /// clamps them); when none has one, the first account in the rule's order always goes first.
    static func weightedPropensities(_ suitable: [(id: UUID, weight: Int)]) -> [RoutingDecision.Propensity] {
        let weighted = suitable.filter { $0.weight > 0 }.map {
            (id: $0.id, weight: min($0.weight, RoutingRule.maximumWeight))
        }
        let total = weighted.reduce(0) { $0 + Double($1.weight) }
        guard total > 0 else { return suitable.first.map { [.init(accountId: $0.id, probability: 1)] } ?? [] }
        return weighted.map { .init(accountId: $0.id, probability: Double($0.weight) / total) }
    }
}
