import Foundation
import Hummingbird
import SwitchyardCore

/// `GET …/routing/stats`: the authorisation statistics adaptive rules rank accounts by, per account ×
/// method × currency (`country: null`) and per country, with the observed rate and its confidence bounds.
extension RoutingController {
    struct StatsBody: Encodable {
        struct Window: Encodable {
            var attempts: Int
            var seconds: Int
        }

        struct Entry: Encodable {
            var accountId: String
            var accountName: String?
            var method: String
            var currency: String
            var country: String?
            var approved: Int
            var declined: Int
            var samples: Int
            var rate: Double?
            var lowerBound: Double?
            var upperBound: Double?
            var newestAt: Date?

            enum CodingKeys: String, CodingKey {
                case accountId = "account_id"
                case accountName = "account_name"
                case method, currency, country, approved, declined, samples, rate
                case lowerBound = "lower_bound"
                case upperBound = "upper_bound"
                case newestAt = "newest_at"
            }

            /// Absent values are written as `null`, so every entry has every key.
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(accountId, forKey: .accountId)
                try c.encode(accountName, forKey: .accountName)
                try c.encode(method, forKey: .method)
                try c.encode(currency, forKey: .currency)
                try c.encode(country, forKey: .country)
                try c.encode(approved, forKey: .approved)
                try c.encode(declined, forKey: .declined)
                try c.encode(samples, forKey: .samples)
                try c.encode(rate, forKey: .rate)
                try c.encode(lowerBound, forKey: .lowerBound)
                try c.encode(upperBound, forKey: .upperBound)
                try c.encode(newestAt, forKey: .newestAt)
            }
        }

        var window: Window
        var data: [Entry]

        init(_ listing: RoutingStatsService.Listing) {
            window = Window(attempts: listing.windowAttempts, seconds: listing.windowSeconds)
            data = listing.entries.map { e in
                Entry(
                    accountId: e.stats.accountId.uuidString.lowercased(), accountName: e.accountName,
                    method: e.stats.method, currency: e.stats.currency, country: e.stats.country,
                    approved: e.stats.approved, declined: e.stats.declined, samples: e.stats.samples, rate: e.rate,
                    lowerBound: e.lowerBound, upperBound: e.upperBound, newestAt: e.stats.newest)
            }
        }
    }

    /// Registers `GET <path>/stats` on each group, the tenant resolved as the group's other routing routes do.
    func registerStats(_ routes: [(group: RouterGroup<AppContext>, path: String, resolve: Resolve)]) {
        for (group, path, resolve) in routes {
            group.get(RouterPath(path + "/stats")) { request, context in
                let (tenant, _) = try await resolve(request, context)
                return JSONIO.response(.ok, StatsBody(try await stats.listing(tenant: tenant)))
            }
        }
    }
}
