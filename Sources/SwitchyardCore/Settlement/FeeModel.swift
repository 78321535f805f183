import Foundation

/// What a provider account charges for one payment in one currency: a fixed part in minor units plus a
/// share of the amount in basis points (1/100 of a percent).
public struct FeeModel: Codable, Sendable, Equatable {
    /// Minor units of the currency charged per payment.
    public var fixed: Int64
    /// Basis points of the amount (150 = 1.5 %).
    public var basisPoints: Int

    /// The largest fixed fee accepted, in minor units.
    public static let maximumFixed: Int64 = 1_000_000_000
    /// The largest share accepted: 100 %.
    public static let maximumBasisPoints = 10_000

    public init(fixed: Int64, basisPoints: Int) {
        self.fixed = fixed
        self.basisPoints = basisPoints
    }

    enum CodingKeys: String, CodingKey {
        case fixed
        case basisPoints = "basis_points"
    }

    /// The fee for `amount` minor units, rounded half up to a whole minor unit; nil when the model is out
    /// of its bounds or the result would not fit.
    public func fee(for amount: Int64) -> Int64? {
        guard (0...Self.maximumFixed).contains(fixed), (0...Self.maximumBasisPoints).contains(basisPoints),
            amount >= 0
        else { return nil }
        let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(basisPoints))
        guard !overflow else { return nil }
        let share = product / 10_000 + (product % 10_000 >= 5_000 ? 1 : 0)
        let (total, overflowed) = share.addingReportingOverflow(fixed)
        return overflowed ? nil : total
    }
}
