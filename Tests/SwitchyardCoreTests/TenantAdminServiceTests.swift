import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

struct TenantAdminServiceTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let repository: InMemoryTenantRepository
    let service: TenantAdminService

    init() {
        let start = start
        repository = InMemoryTenantRepository(now: { start })
        service = TenantAdminService(tenants: repository, now: { start })
    }

    @Test func aTenantNameIsTrimmedAndMustHoldOneToTwoHundredCharacters() async throws {
        let tenant = try await service.createTenant(name: "  Shop  ", actor: "operator")
        #expect(tenant.name == "Shop")
        await expectCoreError(.invalidName) {
            _ = try await service.createTenant(name: " \n", actor: "o")
        }
        let long = String(repeating: "x", count: 201)
        await expectCoreError(.invalidName) {
            _ = try await service.createTenant(name: long, actor: "o")
        }
        #expect(try await service.tenants().map(\.name) == ["Shop"])
        #expect(await repository.auditEntries.map(\.actor) == ["operator"])
    }

    @Test func anUnknownOrMissingTenantIsNotFound() async throws {
        await expectCoreError(.notFound) { _ = try await service.tenant(id: nil) }
        await expectCoreError(.notFound) { _ = try await service.tenant(id: UUID()) }
        let tenant = try await service.createTenant(name: "Shop", actor: "operator")
        #expect(try await service.tenant(id: tenant.id) == tenant)
    }

    @Test func aKeyNeedsAScopeAndAFutureExpiryAndDefaultsToPayments() async throws {
        let tenant = try await service.createTenant(name: "Shop", actor: "operator").id
        await expectCoreError(.invalidScopes) {
            _ = try await service.createAPIKey(tenant: tenant, name: nil, scopes: [], expiresAt: nil, actor: "o")
        }
        await expectCoreError(.invalidExpiresAt) {
            _ = try await service.createAPIKey(tenant: tenant, name: nil, scopes: nil, expiresAt: start, actor: "o")
        }
        let created = try await service.createAPIKey(
            tenant: tenant, name: nil, scopes: nil, expiresAt: start.addingTimeInterval(60), actor: "o")
        #expect(created.key.scopes == [.payments])
        #expect(created.key.name == "api key")
        #expect(try await repository.authenticate(secret: created.secret) == created.key)
        #expect(try await service.apiKeys(tenant: tenant) == [created.key])
    }

    @Test func revokingAnUnknownKeyIsNotFoundAndARevokedKeyNoLongerAuthenticates() async throws {
        let tenant = try await service.createTenant(name: "Shop", actor: "operator").id
        await expectCoreError(.notFound) {
            try await service.revokeAPIKey(tenant: tenant, id: nil, actor: "o")
        }
        await expectCoreError(.notFound) {
            try await service.revokeAPIKey(tenant: tenant, id: UUID(), actor: "o")
        }
        let created = try await service.createAPIKey(tenant: tenant, name: "k", scopes: nil, expiresAt: nil, actor: "o")
        let other = try await service.createTenant(name: "Other", actor: "operator").id
        await expectCoreError(.notFound) {
            try await service.revokeAPIKey(tenant: other, id: created.key.id, actor: "o")
        }
        try await service.revokeAPIKey(tenant: tenant, id: created.key.id, actor: "o")
        #expect(try await repository.authenticate(secret: created.secret) == nil)
    }

    @Test func aRotationGraceIsZeroToThirtyDaysDefaultingToOne() async throws {
        let tenant = try await service.createTenant(name: "Shop", actor: "operator").id
        let old = try await service.createAPIKey(
            tenant: tenant, name: "k", scopes: [.admin], expiresAt: nil, actor: "o")
        for grace in [-1, 2_592_001] {
            await expectCoreError(.invalidGrace) {
                _ = try await service.rotateAPIKey(
                    tenant: tenant, id: old.key.id, graceSeconds: grace, expiresAt: nil, actor: "o")
            }
        }
        await expectCoreError(.invalidExpiresAt) {
            _ = try await service.rotateAPIKey(
                tenant: tenant, id: old.key.id, graceSeconds: nil, expiresAt: start, actor: "o")
        }
        await expectCoreError(.notFound) {
            _ = try await service.rotateAPIKey(
                tenant: tenant, id: UUID(), graceSeconds: nil, expiresAt: nil, actor: "o")
        }
        let new = try await service.rotateAPIKey(
            tenant: tenant, id: old.key.id, graceSeconds: nil, expiresAt: nil, actor: "o")
        #expect(new.key.scopes == [.admin] && new.key.name == "k")
        let keys = try await service.apiKeys(tenant: tenant)
        #expect(keys.first { $0.id == old.key.id }?.expiresAt == start.addingTimeInterval(86_400))
    }

    @Test func aTenantPolicyMayOnlyTightenThePlatforms() async throws {
        let tenant = try await service.createTenant(name: "Shop", actor: "operator").id
        let platform = PlatformPolicy()
        let looser = TenantPolicy(attemptLimit: platform.failover.attemptLimit + 1)
        await expectCoreError(.policyLoosened) {
            try await service.setTenantPolicy(tenant: tenant, policy: looser, platform: platform, actor: "operator")
        }
        #expect(try await service.tenantPolicy(tenant: tenant) == TenantPolicy())
        do {
            try await service.setTenantPolicy(tenant: tenant, policy: looser, platform: platform, actor: "operator")
        } catch let error as CoreError {
            #expect(error.param == "attempt_limit")
        }
        let tighter = TenantPolicy(attemptLimit: 1)
        try await service.setTenantPolicy(tenant: tenant, policy: tighter, platform: platform, actor: "operator")
        #expect(try await service.tenantPolicy(tenant: tenant) == tighter)
    }
}
