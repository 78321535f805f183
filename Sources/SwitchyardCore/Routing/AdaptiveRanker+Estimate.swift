import Foundation

extension AdaptiveRanker {
    /// The estimate of an account for a payment's method and currency: from the payment's country's
    /// row when it has at least `countryMinSamples` answers, else from the row of every country. A row
    /// whose counts are negative or do not add up within `Int` counts as no data.
    public static func estimate(
        _ accountId: UUID, stats: [AuthorizationStats], payment: PaymentDescription, countryMinSamples: Int, z: Double
    ) -> Estimate {
        let rows = stats.filter {
            $0.accountId == accountId && $0.method == payment.method && $0.currency == payment.currency
        }
        let countryRow = rows.first { $0.country == payment.country }
        let row =
            countryRow.flatMap { checkedSamples($0).map { $0 >= max(1, countryMinSamples) } ?? false ? $0 : nil }
            ?? rows.first { $0.country == nil }
        guard let row, let samples = checkedSamples(row), samples > 0,
            let interval = row.wilsonInterval(z: z), interval.rate.isFinite, interval.lower.isFinite,
            interval.upper.isFinite
        else { return Estimate(samples: 0, rate: nil, lower: nil, upper: nil, newest: row?.newest) }
        return Estimate(
            samples: samples, rate: interval.rate, lower: interval.lower, upper: interval.upper, newest: row.newest)
    }

    /// A row's answers, or nil when its counts are negative or their sum does not fit.
    static func checkedSamples(_ row: AuthorizationStats) -> Int? {
        guard row.approved >= 0, row.declined >= 0 else { return nil }
        let (sum, overflow) = row.approved.addingReportingOverflow(row.declined)
        return overflow ? nil : sum
    }

    /// The cost step: among ranked accounts with enough data whose rate is within `loss` percentage
    /// points of the best one's, the cheapest (ties by rank) when it is cheaper than the best; accounts
    /// without a fee are never chosen for cost, nor is anything when the best has no fee.
    static func cheaperChoice(known ranked: [Entry], loss: Double) -> (Entry, String)? {
        guard loss.isFinite, loss >= 0, let best = ranked.first, let bestRate = best.estimate.rate,
            let bestFee = best.fee, bestFee > 0
        else { return nil }
        let threshold = bestRate - loss / 100
        var cheapest: (entry: Entry, fee: Int64)?
        for entry in ranked.dropFirst() {
            guard let rate = entry.estimate.rate, entry.estimate.lower != nil, rate >= threshold,
                let fee = entry.fee, fee < bestFee
            else { continue }
            if cheapest.map({ fee < $0.fee }) ?? true { cheapest = (entry, fee) }
        }
        guard let (entry, fee) = cheapest, let rate = entry.estimate.rate else { return nil }
        let lost = max(0, (bestRate - rate) * 100)
        let saved = Double(bestFee - fee) / Double(bestFee) * 100
        return (
            entry,
            "within \(String(format: "%.1f", lost)) pp of best and \(Int(saved.rounded(.down))) % cheaper"
        )
    }

    /// A rate as a percentage with one decimal, "-" when absent.
    static func percent(_ value: Double?) -> String {
        value.map { String(format: "%.1f %%", $0 * 100) } ?? "-"
    }
}
