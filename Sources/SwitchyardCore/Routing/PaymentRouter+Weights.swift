import Foundation

extension RoutingRule.Match {
    /// Why a payment does not satisfy the match, or nil when it does.
    public func mismatch(_ payment: PaymentDescription) -> String? {
        if !countries.isEmpty && !countries.contains(payment.country) {
            return "country \(payment.country) is not one of \(countries.joined(separator: ", "))"
        }
        if !currencies.isEmpty && !currencies.contains(payment.currency) {
            return "currency \(payment.currency) is not one of \(currencies.joined(separator: ", "))"
        }
        if !methods.isEmpty && !methods.contains(payment.method) {
            return "method \(payment.method) is not one of \(methods.joined(separator: ", "))"
        }
        if let minAmount, payment.amount < minAmount { return "amount \(payment.amount) is below \(minAmount)" }
        if let maxAmount, payment.amount > maxAmount { return "amount \(payment.amount) is above \(maxAmount)" }
        return nil
    }
}

extension PaymentRouter {
    /// Orders weighted candidates: accounts are drawn one after another with probability proportional to
    /// their weight, from a generator seeded by `key`, so the same key always yields the same order.
    /// Accounts with weight 0 follow in their listed order.
    static func weightedOrder(_ candidates: [(id: UUID, weight: Int)], key: String) -> [UUID] {
        var generator = SplitMix64(seed: StableHash.fnv1a(key))
        // Weights are validated when rules are stored; clamping keeps the sum in range whatever the input.
        var pool = candidates.filter { $0.weight > 0 }.map {
            (id: $0.id, weight: min($0.weight, RoutingRule.maximumWeight))
        }
        var order: [UUID] = []
        while !pool.isEmpty {
            let total = pool.reduce(0) { $0 + UInt64($1.weight) }
            var draw = generator.next() % total
            var index = 0
            while draw >= UInt64(pool[index].weight) {
                draw -= UInt64(pool[index].weight)
                index += 1
            }
            order.append(pool.remove(at: index).id)
        }
        return order + candidates.filter { $0.weight <= 0 }.map(\.id)
    }

    /// The key a payment's weighted draw is seeded with: what a retry of the same request repeats.
    public static func routingKey(tenant: UUID, reference: String, amount: Int64, currency: String) -> String {
        "\(tenant.uuidString.lowercased())|\(reference)|\(amount)|\(currency)"
    }
}

/// A small deterministic generator (SplitMix64): the same seed gives the same sequence everywhere.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
