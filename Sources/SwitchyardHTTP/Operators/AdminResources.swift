import Foundation
import SwitchyardCore

/// Admin API request and response bodies.
enum AdminBodies {
    struct CreateTenant: Decodable {
        var name: String
    }

    struct TenantBody: Encodable {
        var id: String
        var name: String
        var createdAt: Date
        /// The merchant API version the tenant is pinned to; null until its first API key is created (or
        /// for a tenant from before versions, which behaves as the oldest version).
        var apiVersion: String?

        enum CodingKeys: String, CodingKey {
            case id, name
            case createdAt = "created_at"
            case apiVersion = "api_version"
        }

        init(_ t: Tenant) {
            id = t.id.uuidString.lowercased()
            name = t.name
            createdAt = t.createdAt
            apiVersion = t.apiVersion
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(apiVersion, forKey: .apiVersion)
        }
    }

    /// The body of `PATCH /admin/v1/tenants/{tenant}`: the merchant API version to pin the tenant to.
    struct PatchTenant: Decodable {
        var apiVersion: String

        enum CodingKeys: String, CodingKey {
            case apiVersion = "api_version"
        }
    }

    struct CreateKey: Decodable {
        var name: String?
        var scopes: [APIKeyScope]?
        var expiresAt: Date?
        /// A live key when true; a test key by default.
        var livemode: Bool?

        enum CodingKeys: String, CodingKey {
            case name, scopes, livemode
            case expiresAt = "expires_at"
        }
    }

    struct RotateKey: Decodable {
        /// How long the old key stays valid (default one day).
        var graceSeconds: Int?
        /// When the new key expires (default never).
        var expiresAt: Date?

        enum CodingKeys: String, CodingKey {
            case graceSeconds = "grace_seconds"
            case expiresAt = "expires_at"
        }
    }

    struct KeyBody: Encodable {
        var id: String
        var name: String
        var prefix: String
        var scopes: [APIKeyScope]
        var createdAt: Date
        var revokedAt: Date?
        var expiresAt: Date?
        var lastUsedAt: Date?
        var livemode: Bool
        /// Only on creation.
        var secret: String?

        enum CodingKeys: String, CodingKey {
            case id, name, prefix, scopes, secret, livemode
            case createdAt = "created_at"
            case revokedAt = "revoked_at"
            case expiresAt = "expires_at"
            case lastUsedAt = "last_used_at"
        }

        init(_ k: APIKey, secret: String? = nil) {
            id = k.id.uuidString.lowercased()
            name = k.name
            prefix = k.prefix
            scopes = k.scopes
            createdAt = k.createdAt
            revokedAt = k.revokedAt
            expiresAt = k.expiresAt
            lastUsedAt = k.lastUsedAt
            livemode = k.livemode
            self.secret = secret
        }
    }

    struct CreateAccount: Decodable {
        var name: String?
        var plugin: String
        var environment: String?
        var baseURL: String
        var credentials: [String: String]?
        var options: [String: String]?
        var enabled: Bool?
        var fees: [String: FeeModel]?

        enum CodingKeys: String, CodingKey {
            case name, plugin, environment, credentials, options, enabled, fees
            case baseURL = "base_url"
        }
    }

    struct UpdateAccount: Decodable {
        var name: String?
        var environment: String?
        var baseURL: String?
        var credentials: [String: String]?
        var options: [String: String]?
        var enabled: Bool?
        var fees: [String: FeeModel]?

        enum CodingKeys: String, CodingKey {
            case name, environment, credentials, options, enabled, fees
            case baseURL = "base_url"
        }
    }

    struct AccountBody: Encodable {
        var id: String
        var name: String
        var plugin: String
        var environment: String
        var baseURL: String
        /// Secret fields masked.
        var credentials: [String: String]
        var options: [String: String]
        var enabled: Bool
        var notificationURL: String
        var createdAt: Date
        /// What the account charges, by currency code.
        var fees: [String: FeeModel]

        enum CodingKeys: String, CodingKey {
            case id, name, plugin, environment, credentials, options, enabled, fees
            case baseURL = "base_url"
            case notificationURL = "notification_url"
            case createdAt = "created_at"
        }

        init(_ a: ProviderAccount, notificationURL: String) {
            id = a.id.uuidString.lowercased()
            name = a.name
            plugin = a.pluginId
            environment = a.environment
            baseURL = a.baseURL
            credentials = a.maskedCredentials
            options = a.options
            enabled = a.enabled
            self.notificationURL = notificationURL
            createdAt = a.createdAt
            fees = a.fees
        }
    }

    struct RuleBody: Codable {
        struct Match: Codable {
            var countries: [String]?
            var currencies: [String]?
            var methods: [String]?
            var minAmount: MinorUnits?
            var maxAmount: MinorUnits?

            enum CodingKeys: String, CodingKey {
                case countries, currencies, methods
                case minAmount = "min_amount"
                case maxAmount = "max_amount"
            }
        }

        var id: String?
        var name: String
        var match: Match?
        var accounts: [UUID]
        var weights: [Int]?
        var strategy: RoutingStrategy?
        var maxRateLoss: Double?

        enum CodingKeys: String, CodingKey {
            case id, name, match, accounts, weights, strategy
            case maxRateLoss = "max_rate_loss"
        }
    }

    struct Routing: Codable {
        var rules: [RuleBody]
        /// On write: the version the change is based on (optional; refused when stale). On read: the
        /// current version.
        var version: Int?
        var warnings: [APIError.Issue]?
        /// On write: store the rules as a draft and roll it out guarded instead of replacing the routing.
        var rollout: RolloutBody?
    }

    /// The `rollout` object of a routing write.
    struct RolloutBody: Codable {
        /// The draft's share: a fraction (`0.1`) or a percentage string (`"10%"`).
        var share: Share
        var guardrailPP: Double?
        var minSamples: Int?
        var maxDurationSeconds: Int64?

        enum CodingKeys: String, CodingKey {
            case share
            case guardrailPP = "guardrail_pp"
            case minSamples = "min_samples"
            case maxDurationSeconds = "max_duration_seconds"
        }

        /// A share given as a fraction or as a percentage string, kept as a fraction.
        struct Share: Codable {
            var fraction: Double

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Double.self) {
                    fraction = number
                    return
                }
                let text = try container.decode(String.self).trimmingCharacters(in: .whitespaces)
                guard text.hasSuffix("%"), let percent = Double(text.dropLast().trimmingCharacters(in: .whitespaces))
                else {
                    throw APIError(
                        .invalidParameter, "share is a fraction (0.1) or a percentage string (\"10%\")",
                        param: "rollout.share")
                }
                fraction = percent / 100
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(fraction)
            }
        }
    }
}
