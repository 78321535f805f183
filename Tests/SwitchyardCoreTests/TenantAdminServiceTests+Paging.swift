import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

/// Tenants and a tenant's keys are listed a page at a time, newest first, within a creation window.
struct TenantAdminServicePagingTests {
    @Test func tenantsAndKeysPageNewestFirstWithinACreationWindow() async throws {
        let clock = ManualClock()
        let service = TenantAdminService(tenants: InMemoryTenantRepository(now: clock.now), now: clock.now)
        var tenants: [Tenant] = []
        for name in ["a", "b", "c"] {
            tenants.append(try await service.createTenant(name: name, actor: "operator"))
            clock.advance(60)
        }
        let first = try await service.tenants(page: PageRequest(limit: 2))
        #expect(first.items.map(\.name) == ["c", "b"] && first.hasMore)
        let next = try await service.tenants(
            page: PageRequest(limit: 2, cursor: .after(tenants[1].id.uuidString.lowercased())))
        #expect(next.items.map(\.name) == ["a"] && !next.hasMore)
        let window = try await service.tenants(
            page: PageRequest(created: .init(gt: tenants[0].createdAt, lt: tenants[2].createdAt)))
        #expect(window.items.map(\.name) == ["b"])

        let tenant = tenants[0].id
        let old = try await service.createAPIKey(tenant: tenant, name: "old", scopes: nil, expiresAt: nil, actor: "o")
        clock.advance(1)
        _ = try await service.createAPIKey(tenant: tenant, name: "new", scopes: nil, expiresAt: nil, actor: "o")
        try await service.revokeAPIKey(tenant: tenant, id: old.key.id, actor: "o")
        let keys = try await service.apiKeys(tenant: tenant, page: PageRequest(limit: 1))
        #expect(keys.items.map(\.name) == ["new"] && keys.hasMore)
        let older = try await service.apiKeys(
            tenant: tenant, page: PageRequest(cursor: .after(keys.items[0].id.uuidString.lowercased())))
        #expect(older.items.map(\.name) == ["old"] && older.items[0].revokedAt != nil, "revoked keys are listed")
        await #expect(throws: CoreError.self) {
            _ = try await service.apiKeys(tenant: tenants[1].id, page: PageRequest(cursor: .after("nope")))
        }
    }
}
