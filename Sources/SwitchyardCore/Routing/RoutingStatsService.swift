import Foundation

/// Lists the authorisation statistics adaptive routing decides on, as the tenant or the operator sees
/// them: each entry with its account's name and the rate and Wilson bounds the ranker uses. Reads the
/// repository it is given (the server passes the store itself, uncached, so a listing is always current).
public struct RoutingStatsService: Sendable {
    let stats: any RoutingStatsRepository
    /// Where the accounts' names are read from (descriptors: no secret is opened).
    let accounts: any ConfigurationRepository
    let policy: PolicyCenter
    let now: @Sendable () -> Date

    /// One entry of the listing.
    public struct Entry: Sendable, Equatable {
        public var stats: AuthorizationStats
        /// The account's name, or nil when the account no longer exists.
        public var accountName: String?
        public var rate: Double?
        public var lowerBound: Double?
        public var upperBound: Double?
    }

    /// The window the statistics cover and its entries.
    public struct Listing: Sendable, Equatable {
        public var windowAttempts: Int
        public var windowSeconds: Int
        public var entries: [Entry]
    }

    public init(
        stats: any RoutingStatsRepository, accounts: any ConfigurationRepository, policy: PolicyCenter,
        now: @escaping @Sendable () -> Date
    ) {
        self.stats = stats
        self.accounts = accounts
        self.policy = policy
        self.now = now
    }

    /// A tenant's statistics in the platform's current window, ordered by account name, account, method,
    /// currency and country (all countries first).
    public func listing(tenant: UUID) async throws -> Listing {
        let settings = policy.platform.adaptiveRouting
        let found = try await stats.authorizationStats(tenant: tenant, window: settings.window(at: now()))
        var names: [UUID: String] = [:]
        for account in try await accounts.accountDescriptors(tenant: tenant) { names[account.id] = account.name }
        let entries = found.map { s in
            let interval = s.wilsonInterval(z: settings.confidenceZ)
            return Entry(
                stats: s, accountName: names[s.accountId], rate: interval?.rate, lowerBound: interval?.lower,
                upperBound: interval?.upper)
        }
        return Listing(
            windowAttempts: settings.windowAttempts, windowSeconds: settings.windowSeconds,
            entries: entries.sorted(by: Self.listed))
    }

    static func listed(_ a: Entry, _ b: Entry) -> Bool {
        let left = (a.accountName ?? "", a.stats.accountId.uuidString, a.stats.method, a.stats.currency)
        let right = (b.accountName ?? "", b.stats.accountId.uuidString, b.stats.method, b.stats.currency)
        if left != right { return left < right }
        return (a.stats.country ?? "") < (b.stats.country ?? "")
    }
}
