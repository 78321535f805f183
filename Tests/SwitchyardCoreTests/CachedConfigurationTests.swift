import Foundation
import SwitchyardCore
import Synchronization
import Testing

/// The configuration cache in front of a repository: repeated reads stay in memory, a reported change
/// of one tenant reloads that tenant only, and secrets are opened only for the accounts asked for.
struct CachedConfigurationTests {
    /// A repository that counts what it is asked.
    final class Repository: ConfigurationRepository {
        let tenant: UUID
        let accountIds = [UUID(), UUID(), UUID()]
        let calls = Mutex<[String: Int]>([:])
        let routingVersion = Mutex(1)

        init(tenant: UUID) { self.tenant = tenant }

        func count(_ name: String) -> Int { calls.withLock { $0[name, default: 0] } }
        private func note(_ name: String) { calls.withLock { $0[name, default: 0] += 1 } }

        func descriptor(_ id: UUID, secret: String?) -> ProviderAccount {
            ProviderAccount(
                id: id, tenantId: tenant, name: "acct", pluginId: "citcon", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: secret.map { ["key": $0] } ?? [:], secretFields: ["key"],
                enabled: true, createdAt: Date(timeIntervalSince1970: 0))
        }

        func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
            note("account:\(id)")
            return accountIds.contains(id) ? descriptor(id, secret: "secret") : nil
        }
        func accounts(tenant: UUID) async throws -> [ProviderAccount] {
            note("accounts")
            return accountIds.map { descriptor($0, secret: "secret") }
        }
        func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount] {
            note("descriptors")
            return accountIds.map { descriptor($0, secret: nil) }
        }
        func account(id: UUID) async throws -> ProviderAccount? {
            note("system account")
            return nil
        }
        func routingRules(tenant: UUID) async throws -> [RoutingRule] { [] }
        func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
            note("routing:\(tenant)")
            return RoutingConfiguration(version: routingVersion.withLock { $0 }, rules: [])
        }
        func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
            note("policy")
            return TenantPolicy(attemptLimit: 2)
        }
    }

    let tenant = UUID()

    func setUp() -> (Repository, CachedConfiguration, ConfigurationChanges) {
        let repository = Repository(tenant: tenant)
        let changes = ConfigurationChanges()
        let cached = CachedConfiguration(
            repository, changes: changes, settings: CacheSettings(ttl: 60, maxEntries: 100), clock: { Date() })
        changes.setLive(true)
        return (repository, cached, changes)
    }

    @Test func repeatedReadsAreServedFromMemory() async throws {
        let (repository, cached, _) = setUp()
        for _ in 0..<5 {
            #expect(try await cached.tenantPolicy(tenant: tenant).attemptLimit == 2)
            #expect(try await cached.routingConfiguration(tenant: tenant).version == 1)
            #expect(try await cached.accountDescriptors(tenant: tenant).count == 3)
            #expect(
                try await cached.account(tenant: tenant, id: repository.accountIds[1])?.credentials["key"] == "secret")
        }
        #expect(repository.count("policy") == 1)
        #expect(repository.count("routing:\(tenant)") == 1)
        #expect(repository.count("descriptors") == 1)
        #expect(repository.count("account:\(repository.accountIds[1])") == 1)
        #expect(cached.statistics.hits == 16)
    }

    @Test func onlyTheAccountsAskedForAreOpened() async throws {
        let (repository, cached, _) = setUp()
        let descriptors = try await cached.accountDescriptors(tenant: tenant)
        #expect(descriptors.allSatisfy { $0.credentials["key"] == nil })
        _ = try await cached.account(tenant: tenant, id: repository.accountIds[0])
        #expect(repository.count("accounts") == 0)
        #expect(repository.count("account:\(repository.accountIds[0])") == 1)
        #expect(repository.count("account:\(repository.accountIds[1])") == 0)
    }

    @Test func aReportedChangeReloadsThatTenantOnly() async throws {
        let (repository, cached, changes) = setUp()
        let other = UUID()
        _ = try await cached.routingConfiguration(tenant: tenant)
        _ = try await cached.routingConfiguration(tenant: other)
        repository.routingVersion.withLock { $0 = 2 }
        #expect(try await cached.routingConfiguration(tenant: tenant).version == 1)
        changes.changed(tenant: tenant)
        #expect(try await cached.routingConfiguration(tenant: tenant).version == 2)
        #expect(try await cached.routingConfiguration(tenant: other).version == 1)
        #expect(repository.count("routing:\(tenant)") == 2)
        #expect(repository.count("routing:\(other)") == 1)
    }

    @Test func nothingIsServedFromMemoryWhileChangesAreNotReported() async throws {
        let (repository, cached, changes) = setUp()
        changes.setLive(false)
        for _ in 0..<3 { _ = try await cached.tenantPolicy(tenant: tenant) }
        #expect(repository.count("policy") == 3)
    }

    @Test func systemLookupsAlwaysReachTheRepository() async throws {
        let (repository, cached, _) = setUp()
        for _ in 0..<2 { _ = try await cached.account(id: repository.accountIds[0]) }
        #expect(repository.count("system account") == 2)
    }
}
