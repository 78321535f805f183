import Foundation
import SwitchyardCore

/// API keys found recently, by the SHA-256 of their secret (the secret itself is never kept), with when
/// their use was last recorded.
final class APIKeyCache: Sendable {
    struct Hit: Sendable {
        var key: APIKey
        var usedAt: Date
    }

    let entries: TenantCache<String, Hit>

    init(settings: CacheSettings, clock: @escaping @Sendable () -> Date) {
        entries = TenantCache(settings: settings, clock: clock)
    }

    func value(for hash: String) -> Hit? {
        entries.value(for: hash)
    }

    func ticket(tenant: UUID?) -> TenantCache<String, Hit>.Ticket? {
        entries.ticket(tenant: tenant)
    }

    func insert(_ key: APIKey, hash: String, usedAt: Date, ticket: TenantCache<String, Hit>.Ticket) {
        entries.insert(Hit(key: key, usedAt: usedAt), for: hash, tenant: key.tenantId, ticket: ticket)
    }
}

extension PostgresStore {
    /// Applies the cache settings of the platform policy to the API keys held; everything held is dropped.
    public func configureCaching(_ settings: CacheSettings) {
        apiKeys.entries.configure(settings)
    }

    /// A listener that reports every replica's configuration writes to ``configurationChanges``, on a
    /// connection of its own made like the pool's; not started yet.
    public func configurationListener(_ configuration: PostgresConfiguration) -> ConfigurationListener {
        ConfigurationListener(configuration: configuration, changes: configurationChanges, logger: logger)
    }
}

extension PostgresStore {
    /// API key look-ups served from memory, and not.
    public var apiKeyCacheStatistics: (hits: Int, misses: Int) { apiKeys.entries.statistics }
}
