import ArgumentParser
import Foundation
import Logging
import ProviderKit
import ProviderSandbox
import SwitchyardCommands
import SwitchyardCore
import SwitchyardStore

/// The sandbox merchants of the embedded default, one per registered emulator, with secrets kept in the
/// data directory so they stay the same across restarts.
struct DemoSandboxMerchants {
    /// Each registered emulator with its demo merchant and account, narrowest routing rule first (then by
    /// name), so a wider rule never hides a narrower one.
    var demos: [(registration: SandboxRegistration, demo: SandboxDemo)]

    init(dataDirectory: String) throws {
        let secrets = SandboxDemoSecrets { name, make in
            try StateFile.secret(at: dataDirectory + "/" + name, make: make)
        }
        demos = try SandboxRegistration.all.map { ($0, try $0.demo(secrets: secrets)) }.sorted {
            ($0.demo.route.specificity, $1.registration.name) > ($1.demo.route.specificity, $0.registration.name)
        }
    }

    /// The sandbox configuration that knows these merchants.
    var sandboxConfiguration: SandboxConfiguration { .demo(demos.map(\.demo)) }
}

/// Seeds (once) and refreshes (every start) the demo tenant of the embedded default: one account per
/// registered emulator (a Citcon account for US wallets, a Worldline Sips account for cards in France, a
/// Worldline Direct account for other cards in euros, an Antom account for Asian wallets and vaulted
/// cards), each routed by one rule. Which credentials are secret comes from the plugin's manifest.
enum DemoSeed {
    static let actor = "embedded-default"

    /// - Parameter manifests: the manifest of a loaded plugin by id (nil when it is not loaded: its demo
    ///   account is skipped).
    static func seed(
        store: PostgresStore, dataDirectory: String, serverURL: String, sandboxURL: String, operatorToken: String,
        merchants: DemoSandboxMerchants, manifests: (String) async -> PluginManifest?, logger: Logger
    ) async throws -> DemoState {
        let path = dataDirectory + "/demo.json"
        var state: DemoState
        if let data = FileManager.default.contents(atPath: path),
            let known = try? JSONDecoder().decode(DemoState.self, from: data),
            let tenantId = UUID(uuidString: known.tenantId), try await store.tenants.tenant(id: tenantId) != nil
        {
            state = known
        } else {
            state = try await createTenant(store: store, logger: logger)
        }
        let tenantId = UUID(uuidString: state.tenantId)!
        var rules: [RoutingRule] = []
        var created = false
        for (registration, demo) in merchants.demos {
            guard let manifest = await manifests(registration.pluginID) else {
                logger.warning(
                    "demo account skipped: its plugin is not loaded",
                    metadata: ["plugin.id": "\(registration.pluginID)"])
                continue
            }
            let account = try account(
                demo, of: registration, manifest: manifest, tenant: tenantId, sandboxURL: sandboxURL)
            let accountKey = demo.stateKey + "_account_id"
            let ensured = try await ensureAccount(
                store: store, tenant: tenantId, id: state.providers[accountKey], account: account)
            created = created || ensured.created
            state.providers[accountKey] = ensured.id.uuidString.lowercased()
            state.providers.merge(demo.state) { _, new in new }
            rules.append(
                RoutingRule(
                    id: UUID(), name: demo.route.name,
                    match: .init(
                        countries: demo.route.countries, currencies: demo.route.currencies,
                        methods: demo.route.methods),
                    accounts: [ensured.id]))
        }
        if created {
            try await store.routing.replaceRoutingRules(tenant: tenantId, rules: rules, actor: actor)
        }
        state.serverURL = serverURL
        state.sandboxURL = sandboxURL
        state.operatorToken = operatorToken
        try write(state, to: path)
        return state
    }

    private static func createTenant(store: PostgresStore, logger: Logger) async throws -> DemoState {
        let tenant = try await store.tenants.createTenant(name: "Demo Merchant", actor: actor)
        let key = try await store.tenants.createAPIKey(
            tenant: tenant.id, name: "demo", scopes: [.payments, .admin], expiresAt: nil, actor: actor)
        logger.info("demo tenant seeded", metadata: ["tenant.id": "\(tenant.id)"])
        return DemoState(
            serverURL: "", sandboxURL: "", operatorToken: "", tenantId: tenant.id.uuidString.lowercased(),
            apiKey: key.secret)
    }

    /// The demo account of `registration`'s emulator, its credentials checked against the plugin's manifest
    /// and its secret fields those the manifest declares secret.
    /// - Throws: `ValidationError` when the demo's credentials and the manifest's fields disagree.
    static func account(
        _ demo: SandboxDemo, of registration: SandboxRegistration, manifest: PluginManifest, tenant: UUID,
        sandboxURL: String
    ) throws -> ProviderAccount {
        let fields = manifest.credentials
        if let mismatch = demo.credentialMismatch(
            fields: fields.map(\.name), required: fields.filter(\.required).map(\.name))
        {
            throw ValidationError("the \(registration.name) sandbox's demo credentials: \(mismatch)")
        }
        return ProviderAccount(
            id: UUID(), tenantId: tenant, name: demo.accountName, pluginId: manifest.id, environment: "sandbox",
            baseURL: sandboxURL + "/" + registration.name, credentials: demo.credentials,
            secretFields: fields.filter { $0.secret && demo.credentials[$0.name] != nil }.map(\.name),
            options: demo.options, enabled: true, createdAt: Date())
    }

    /// The account recorded under `id`, with its base URL brought up to date, or a new one.
    private static func ensureAccount(store: PostgresStore, tenant: UUID, id: String?, account: ProviderAccount)
        async throws -> (id: UUID, created: Bool)
    {
        if let id = id.flatMap(UUID.init(uuidString:)),
            var existing = try await store.accounts.account(tenant: tenant, id: id)
        {
            if existing.baseURL != account.baseURL {
                existing.baseURL = account.baseURL
                try await store.accounts.updateAccount(existing, actor: actor, changed: ["base_url"])
            }
            return (id, false)
        }
        return (try await store.accounts.createAccount(account, actor: actor).id, true)
    }

    static func write(_ state: DemoState, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try StateFile.write(String(decoding: try encoder.encode(state), as: UTF8.self) + "\n", to: path)
    }
}
