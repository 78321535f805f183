import Foundation

/// A value of each tenant read from the store at most once per `maxAge` per tenant (so a change takes
/// effect within `maxAge`). A read that throws is not kept, and its error reaches the caller.
actor TenantReadCache<Value: Sendable> {
    private let load: @Sendable (UUID) async throws -> Value
    private let maxAge: TimeInterval
    private var entries: [UUID: (value: Value, readAt: TimeInterval)] = [:]

    init(maxAge: TimeInterval = 5, load: @escaping @Sendable (UUID) async throws -> Value) {
        self.load = load
        self.maxAge = maxAge
    }

    /// The tenant's value, read again when the one held is older than `maxAge`.
    func value(_ tenant: UUID) async throws -> Value {
        let now = ProcessInfo.processInfo.systemUptime
        if let entry = entries[tenant], now - entry.readAt < maxAge { return entry.value }
        let value = try await load(tenant)
        entries[tenant] = (value, now)
        return value
    }
}
