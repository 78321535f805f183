import Foundation
import ProviderKit

/// The definite answers one provider account gave for one payment method and currency (and, when
/// `country` is set, one country) within the statistics window: what adaptive routing estimates an
/// account's authorisation rate from.
public struct AuthorizationStats: Codable, Sendable, Equatable {
    public var accountId: UUID
    public var method: String
    public var currency: String
    /// The country these answers are for, or nil for the answers of every country together.
    public var country: String?
    /// Answers that authorised or captured the payment.
    public var approved: Int
    /// Answers that declined it.
    public var declined: Int
    /// When the most recent answer counted was recorded.
    public var newest: Date?

    public init(
        accountId: UUID, method: String, currency: String, country: String? = nil, approved: Int, declined: Int,
        newest: Date? = nil
    ) {
        self.accountId = accountId
        self.method = method
        self.currency = currency
        self.country = country
        self.approved = approved
        self.declined = declined
        self.newest = newest
    }

    /// Answers counted (saturating: counts read from a store never trap).
    public var samples: Int {
        let (sum, overflow) = approved.addingReportingOverflow(declined)
        return overflow ? Int.max : sum
    }

    /// How an attempt's outcome counts in the statistics: approved, declined, or not at all (`notSent`,
    /// `unknown`, `pending` and `canceled` are not answers about the payment's chance; they feed the
    /// breaker instead).
    public static func counts(_ outcome: Outcome.Kind?) -> Bool? {
        switch outcome {
        case .succeeded?, .authorized?: return true
        case .declined?: return false
        default: return nil
        }
    }
}

/// Which answers the statistics cover: the most recent `attempts` per account × method × currency
/// (× country), none recorded before `since`.
public struct AuthorizationStatsWindow: Sendable, Equatable {
    public var attempts: Int
    public var since: Date

    public init(attempts: Int, since: Date) {
        self.attempts = attempts
        self.since = since
    }
}

/// Reads the authorisation statistics that adaptive routing decides on. Definite answers are recorded by
/// the payment repository in the same transaction as the attempt's outcome, once per attempt.
public protocol RoutingStatsRepository: Sendable {
    /// A tenant's statistics within `window`: one entry per account × method × currency with
    /// `country == nil`, and one per account × method × currency × country.
    func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws -> [AuthorizationStats]
}
