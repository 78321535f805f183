import Foundation

/// Storage of tenants' provider accounts as the operator administers them. Every change is audited with
/// its actor.
public protocol AccountRepository: Sendable {
    /// Stores a new account (secret credentials sealed); returns it as stored.
    func createAccount(_ account: ProviderAccount, actor: String) async throws -> ProviderAccount
    /// Stores an account's new state; `changed` names the fields changed, for the audit log.
    func updateAccount(_ account: ProviderAccount, actor: String, changed: [String]) async throws
    /// A tenant's account, secrets decrypted.
    func account(tenant: UUID, id: UUID) async throws -> ProviderAccount?
    /// All of a tenant's accounts, secrets decrypted.
    func accounts(tenant: UUID) async throws -> [ProviderAccount]
    /// The rows of `page` (see ``PageRequest/page(_:)``) of a tenant's accounts, secrets decrypted; `status`
    /// is `enabled` or `disabled`.
    func accounts(tenant: UUID, page: PageRequest) async throws -> [ProviderAccount]
}
