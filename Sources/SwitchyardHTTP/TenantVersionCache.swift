import Foundation
import SwitchyardCore

/// The version each tenant is pinned to, read from the store at most once per `maxAge` per tenant. A
/// failed read is thrown (the request fails rather than being answered in a version it did not ask for).
actor TenantVersionCache {
    private let tenants: any TenantRepository
    private let maxAge: TimeInterval
    private var entries: [UUID: (version: APIVersion, readAt: TimeInterval)] = [:]

    init(tenants: any TenantRepository, maxAge: TimeInterval = 5) {
        self.tenants = tenants
        self.maxAge = maxAge
    }

    func version(_ tenant: UUID) async throws -> APIVersion {
        let now = ProcessInfo.processInfo.systemUptime
        if let entry = entries[tenant], now - entry.readAt < maxAge { return entry.version }
        let version = APIVersion.pinned(try await tenants.tenant(id: tenant)?.apiVersion)
        entries[tenant] = (version, now)
        return version
    }
}
