import Foundation

/// A merchant sharing the deployment.
public struct Tenant: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    /// The merchant API version the tenant is pinned to (``APIVersion/name``), set when its first API key
    /// is created; nil for a tenant without keys yet or created before versions existed (see
    /// ``APIVersion/pinned(_:)``).
    public var apiVersion: String?

    public init(id: UUID, name: String, createdAt: Date, apiVersion: String? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.apiVersion = apiVersion
    }
}

/// What an API key may do.
public enum APIKeyScope: String, Codable, Sendable, CaseIterable {
    /// The merchant API (`/v1`).
    case payments
    /// Tenant-scoped configuration.
    case admin
}

/// A merchant API key as stored: only a hash of the secret is kept.
public struct APIKey: Codable, Sendable, Equatable {
    public var id: UUID
    public var tenantId: UUID
    /// The first characters of the secret, shown to identify the key.
    public var prefix: String
    public var name: String
    public var scopes: [APIKeyScope]
    public var createdAt: Date
    public var revokedAt: Date?
    public var expiresAt: Date?
    public var lastUsedAt: Date?
    /// Whether the key is live (routes to live accounts only) or test; keys made before modes existed are test.
    public var livemode: Bool

    public init(
        id: UUID, tenantId: UUID, prefix: String, name: String, scopes: [APIKeyScope], createdAt: Date,
        revokedAt: Date? = nil, expiresAt: Date? = nil, lastUsedAt: Date? = nil, livemode: Bool = false
    ) {
        self.id = id
        self.tenantId = tenantId
        self.prefix = prefix
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
        self.livemode = livemode
    }

    /// Whether the key can be used at `now`.
    public func isUsable(at now: Date) -> Bool {
        if revokedAt != nil { return false }
        if let expiresAt, expiresAt <= now { return false }
        return true
    }
}
