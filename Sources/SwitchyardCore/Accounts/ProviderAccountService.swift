import Foundation
import ProviderKit

/// The operator's administration of tenants' provider accounts, with the rules every account must keep:
/// its plugin is loaded, its credentials are the plugin's (every required one given, none unknown), its
/// base URL is an absolute http(s) URL. Changes are audited by the repository under the acting party's
/// name.
public struct ProviderAccountService: Sendable {
    let accounts: any AccountRepository
    /// The manifest of a loaded plugin, by id.
    let manifest: @Sendable (String) async -> PluginManifest?
    let now: @Sendable () -> Date

    /// A new account as the operator describes it.
    public struct NewAccount: Sendable {
        public var name: String?
        public var plugin: String
        public var environment: String?
        public var baseURL: String
        public var credentials: [String: String]?
        public var options: [String: String]?
        public var enabled: Bool?
        /// What the account charges, by currency code (see ``ProviderAccountService/validateFees(_:)``).
        public var fees: [String: FeeModel]?

        public init(
            name: String? = nil, plugin: String, environment: String? = nil, baseURL: String,
            credentials: [String: String]? = nil, options: [String: String]? = nil, enabled: Bool? = nil,
            fees: [String: FeeModel]? = nil
        ) {
            self.fees = fees
            self.name = name
            self.plugin = plugin
            self.environment = environment
            self.baseURL = baseURL
            self.credentials = credentials
            self.options = options
            self.enabled = enabled
        }
    }

    /// Changes to an account: what is nil stays; credentials are changed one by one.
    public struct AccountChanges: Sendable {
        public var name: String?
        public var environment: String?
        public var baseURL: String?
        public var credentials: [String: String]?
        public var options: [String: String]?
        public var enabled: Bool?
        /// Replaces every fee model of the account.
        public var fees: [String: FeeModel]?

        public init(
            name: String? = nil, environment: String? = nil, baseURL: String? = nil,
            credentials: [String: String]? = nil, options: [String: String]? = nil, enabled: Bool? = nil,
            fees: [String: FeeModel]? = nil
        ) {
            self.fees = fees
            self.name = name
            self.environment = environment
            self.baseURL = baseURL
            self.credentials = credentials
            self.options = options
            self.enabled = enabled
        }
    }

    public init(
        accounts: any AccountRepository, manifest: @escaping @Sendable (String) async -> PluginManifest?,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.accounts = accounts
        self.manifest = manifest
        self.now = now
    }

    /// Creates an account of `tenant`: `422 unknown_plugin` when its plugin is not loaded,
    /// `400 missing_credential` / `400 unknown_credential` for credentials that are not the plugin's,
    /// `400 invalid_base_url`, `400 invalid_currency` / `400 invalid_field` for fees out of bounds,
    /// `400 invalid_environment` for an environment that is neither test nor live (``Livemode``),
    /// `422 credential_is_public_test_value` for a live account with a provider's published test credential.
    public func create(tenant: UUID, _ new: NewAccount, actor: String) async throws -> ProviderAccount {
        guard let manifest = await manifest(new.plugin) else {
            throw CoreError(.unknownPlugin, "no plugin with id '\(new.plugin)' is loaded")
        }
        let credentials = new.credentials ?? [:]
        for field in manifest.credentials where field.required && (credentials[field.name] ?? "").isEmpty {
            throw CoreError(.missingCredential, "the credential '\(field.name)' is required")
        }
        let known = Set(manifest.credentials.map(\.name))
        if let unknown = credentials.keys.sorted().first(where: { !known.contains($0) }) {
            throw CoreError(.unknownCredential, "the plugin has no credential named '\(unknown)'")
        }
        try Self.validateBaseURL(new.baseURL)
        try Self.validateFees(new.fees ?? [:])
        if let environment = new.environment { try Livemode.validate(environment: environment) }
        try PublicTestCredentials.refuse(
            environment: new.environment ?? "sandbox", credentials: credentials, manifest: manifest)
        var account = ProviderAccount(
            id: UUID(), tenantId: tenant, name: new.name ?? manifest.provider, pluginId: manifest.id,
            environment: new.environment ?? "sandbox", baseURL: new.baseURL, credentials: credentials,
            secretFields: manifest.credentials.filter(\.secret).map(\.name), options: new.options ?? [:],
            enabled: new.enabled ?? true, createdAt: now())
        account.fees = new.fees ?? [:]
        return try await accounts.createAccount(account, actor: actor)
    }

    /// The account `id` of `tenant`; `404 not_found` when there is none (or no id).
    public func account(tenant: UUID, id: UUID?) async throws -> ProviderAccount {
        guard let id, let account = try await accounts.account(tenant: tenant, id: id) else {
            throw CoreError.notFound("provider account")
        }
        return account
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        try await accounts.accounts(tenant: tenant)
    }

    /// The statuses accounts can be listed by.
    public static let statuses = ["enabled", "disabled"]

    /// A page of the tenant's accounts, newest first, disabled ones included.
    public func accounts(tenant: UUID, page: PageRequest) async throws -> Page<ProviderAccount> {
        page.page(try await accounts.accounts(tenant: tenant, page: page))
    }

    /// Applies `changes` to `account` and stores it, recording which fields changed: `400 invalid_base_url`,
    /// `400 unknown_credential` for a credential its plugin does not have (or, when the plugin is not
    /// loaded, that the account does not have), `400 invalid_currency` / `400 invalid_field` for fees,
    /// `422 credential_is_public_test_value` when the account would be live with a published test credential.
    public func update(_ account: ProviderAccount, _ changes: AccountChanges, actor: String) async throws
        -> ProviderAccount
    {
        var account = account
        var changed: [String] = []
        if let name = changes.name {
            account.name = name
            changed.append("name")
        }
        if let environment = changes.environment {
            try Livemode.validate(environment: environment)
            account.environment = environment
            changed.append("environment")
        }
        if let baseURL = changes.baseURL {
            try Self.validateBaseURL(baseURL)
            account.baseURL = baseURL
            changed.append("base_url")
        }
        if let enabled = changes.enabled {
            account.enabled = enabled
            changed.append("enabled")
        }
        if let options = changes.options {
            account.options = options
            changed.append("options")
        }
        if let fees = changes.fees {
            try Self.validateFees(fees)
            account.fees = fees
            changed.append("fees")
        }
        if let credentials = changes.credentials {
            let manifest = await manifest(account.pluginId)
            let known = Set(manifest?.credentials.map(\.name) ?? Array(account.credentials.keys))
            for (name, value) in credentials {
                guard known.contains(name) else {
                    throw CoreError(.unknownCredential, "the plugin has no credential named '\(name)'")
                }
                account.credentials[name] = value
                changed.append("credentials.\(name)")
            }
            if let manifest { account.secretFields = manifest.credentials.filter(\.secret).map(\.name) }
        }
        if changes.environment != nil || changes.credentials != nil, let manifest = await manifest(account.pluginId) {
            try PublicTestCredentials.refuse(
                environment: account.environment, credentials: account.credentials, manifest: manifest)
        }
        try await accounts.updateAccount(account, actor: actor, changed: changed)
        return account
    }

    /// `400 invalid_base_url` unless `text` is an absolute http(s) URL.
    static func validateBaseURL(_ text: String) throws {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else { throw CoreError(.invalidBaseURL, "base_url must be an absolute http(s) URL") }
    }
}
