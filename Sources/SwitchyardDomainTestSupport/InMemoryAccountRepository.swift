import Foundation
import SwitchyardCore

/// Provider accounts in memory, for fast tests of the services that use an ``AccountRepository``.
/// Every change is kept with its actor in ``changes``.
public actor InMemoryAccountRepository: AccountRepository {
    private var stored: [UUID: ProviderAccount] = [:]
    /// Every change, oldest first: the account, the actor and the fields changed (`["created"]` for a new
    /// account).
    public private(set) var changes: [(account: UUID, actor: String, fields: [String])] = []

    public init(_ accounts: [ProviderAccount] = []) {
        for account in accounts { stored[account.id] = account }
    }

    public func createAccount(_ account: ProviderAccount, actor: String) async throws -> ProviderAccount {
        stored[account.id] = account
        changes.append((account.id, actor, ["created"]))
        return account
    }

    public func updateAccount(_ account: ProviderAccount, actor: String, changed: [String]) async throws {
        guard stored[account.id]?.tenantId == account.tenantId else { throw CoreError.notFound("provider account") }
        stored[account.id] = account
        changes.append((account.id, actor, changed))
    }

    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        stored[id].flatMap { $0.tenantId == tenant ? $0 : nil }
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        stored.values.filter { $0.tenantId == tenant }.sorted { $0.createdAt < $1.createdAt }
    }

    public func accounts(tenant: UUID, page: PageRequest) async throws -> [ProviderAccount] {
        try page.select(
            stored.values.filter { $0.tenantId == tenant }, id: { $0.id.uuidString.lowercased() },
            created: \.createdAt, status: { $0.enabled ? "enabled" : "disabled" })
    }
}
