import Foundation
import Logging
import ProviderSandbox
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore

/// What `demo.json` records for a person trying the embedded default.
struct DemoState: Codable {
    var serverURL: String
    var sandboxURL: String
    var operatorToken: String
    var tenantId: String
    var apiKey: String
    var citconAccountId: String
    var citconSandboxMerchant: String
    var citconPrivateKey: String
    var citconIPNSecret: String
    var worldlineAccountId: String?
    var worldlineMerchantId: String?
    var antomAccountId: String?
    var antomClientId: String?
    var sipsAccountId: String?
    var sipsMerchantId: String?

    enum CodingKeys: String, CodingKey {
        case serverURL = "server_url"
        case sandboxURL = "sandbox_url"
        case operatorToken = "operator_token"
        case tenantId = "tenant_id"
        case apiKey = "api_key"
        case citconAccountId = "citcon_account_id"
        case citconSandboxMerchant = "citcon_sandbox_merchant"
        case citconPrivateKey = "citcon_private_key"
        case citconIPNSecret = "citcon_ipn_secret"
        case worldlineAccountId = "worldline_account_id"
        case worldlineMerchantId = "worldline_merchant_id"
        case antomAccountId = "antom_account_id"
        case antomClientId = "antom_client_id"
        case sipsAccountId = "sips_account_id"
        case sipsMerchantId = "sips_merchant_id"
    }
}

/// The sandbox merchants of the embedded default, with secrets kept in the data directory so they stay
/// the same across restarts.
struct DemoSandboxMerchants {
    var citcon: CitconSandboxMerchant
    var worldline: WorldlineDirectSandboxMerchant
    var antom: AntomSandboxMerchant
    /// The demo merchant's Antom signing key (PKCS#8 PEM).
    var antomMerchantKey: String
    /// The sandbox's own Antom key (PKCS#8 PEM), kept so its public key stays the one the account knows.
    var antomProviderKey: String
    var antomProviderPublicKey: String
    /// The public SIMU test merchant of Worldline Sips (its secret is published, so nothing is kept).
    var sips = WorldlineSipsSandboxMerchant.publicTestMerchants[0]

    init(dataDirectory: String) throws {
        let privateKey = try StateFile.secret(at: dataDirectory + "/sandbox-citcon-private-key") {
            "demo_pk_" + SecureRandom.token(bytes: 18)
        }
        let ipnSecret = try StateFile.secret(at: dataDirectory + "/sandbox-citcon-ipn-secret") {
            "demo_ipn_" + SecureRandom.token(bytes: 18)
        }
        let apiSecret = try StateFile.secret(at: dataDirectory + "/sandbox-worldline-secret-api-key") {
            SecureRandom.token(bytes: 24)
        }
        let webhookSecret = try StateFile.secret(at: dataDirectory + "/sandbox-worldline-webhook-secret") {
            SecureRandom.token(bytes: 24)
        }
        antomMerchantKey = try StateFile.secret(at: dataDirectory + "/sandbox-antom-merchant-key.pem") {
            (try? RSAPrivateKey.generate().pkcs8PEM) ?? ""
        }
        antomProviderKey = try StateFile.secret(at: dataDirectory + "/sandbox-antom-provider-key.pem") {
            (try? RSAPrivateKey.generate().pkcs8PEM) ?? ""
        }
        let merchantPublic = try RSAPrivateKey(pem: antomMerchantKey).publicKey.pem
        antomProviderPublicKey = try RSAPrivateKey(pem: antomProviderKey).publicKey.pem
        antom = AntomSandboxMerchant(clientId: "SANDBOX_5D00000000000001", merchantPublicKey: merchantPublic)
        citcon = CitconSandboxMerchant(id: "demo", privateKey: privateKey, ipnSecret: ipnSecret)
        worldline = WorldlineDirectSandboxMerchant(
            merchantId: "demo-merchant", apiKeyId: "demo-api-key", secretApiKey: apiSecret,
            webhookKeyId: "demo-webhook-key", webhookSecret: webhookSecret)
    }

    /// The sandbox configuration that knows these merchants.
    var sandboxConfiguration: SandboxConfiguration {
        SandboxConfiguration(
            citcon: CitconSandboxConfiguration(merchants: [citcon]),
            worldlineDirect: WorldlineDirectSandboxConfiguration(merchants: [worldline]),
            antom: AntomSandboxConfiguration(merchants: [antom], privateKeyPEM: antomProviderKey),
            sips: WorldlineSipsSandboxConfiguration(merchants: WorldlineSipsSandboxMerchant.publicTestMerchants))
    }
}

/// Seeds (once) and refreshes (every start) the demo tenant of the embedded default: a Citcon account for
/// US wallets, a Worldline Sips account for cards in France, a Worldline Direct account for other cards in
/// euros and an Antom account for Asian wallets (EasySafePay) and vaulted cards, each routed by one rule.
enum DemoSeed {
    static let actor = "embedded-default"

    static func seed(
        store: PostgresStore, dataDirectory: String, serverURL: String, sandboxURL: String, operatorToken: String,
        merchants: DemoSandboxMerchants, logger: Logger
    ) async throws -> DemoState {
        let path = dataDirectory + "/demo.json"
        var state: DemoState
        if let data = FileManager.default.contents(atPath: path),
            let known = try? JSONDecoder().decode(DemoState.self, from: data),
            let tenantId = UUID(uuidString: known.tenantId), try await store.tenant(id: tenantId) != nil
        {
            state = known
        } else {
            state = try await createTenant(store: store, merchants: merchants, logger: logger)
        }
        let tenantId = UUID(uuidString: state.tenantId)!
        let citcon = try await ensureAccount(
            store: store, tenant: tenantId, id: state.citconAccountId,
            account: citconAccount(tenant: tenantId, merchants: merchants, sandboxURL: sandboxURL))
        let worldline = try await ensureAccount(
            store: store, tenant: tenantId, id: state.worldlineAccountId,
            account: worldlineAccount(tenant: tenantId, merchants: merchants, sandboxURL: sandboxURL))
        let antom = try await ensureAccount(
            store: store, tenant: tenantId, id: state.antomAccountId,
            account: antomAccount(tenant: tenantId, merchants: merchants, sandboxURL: sandboxURL))
        let sips = try await ensureAccount(
            store: store, tenant: tenantId, id: state.sipsAccountId,
            account: sipsAccount(tenant: tenantId, merchants: merchants, sandboxURL: sandboxURL))
        if citcon.created || worldline.created || antom.created || sips.created {
            try await store.replaceRoutingRules(
                tenant: tenantId,
                rules: [
                    RoutingRule(
                        id: UUID(), name: "US wallets via Citcon",
                        match: .init(countries: ["US"], currencies: ["USD"], methods: ["alipay", "wechatpay"]),
                        accounts: [citcon.id]),
                    RoutingRule(
                        id: UUID(), name: "Cards in France via Worldline Sips",
                        match: .init(countries: ["FR"], currencies: ["EUR"], methods: ["card"]), accounts: [sips.id]),
                    RoutingRule(
                        id: UUID(), name: "Cards in euros via Worldline Direct",
                        match: .init(currencies: ["EUR"], methods: ["card"]), accounts: [worldline.id]),
                    RoutingRule(
                        id: UUID(), name: "Asian wallets via Antom EasySafePay",
                        match: .init(methods: [
                            "gcash", "dana", "alipay_cn", "alipay_hk", "kakaopay", "tng", "truemoney",
                        ]),
                        accounts: [antom.id]),
                ],
                actor: actor)
        }
        state.citconAccountId = citcon.id.uuidString.lowercased()
        state.worldlineAccountId = worldline.id.uuidString.lowercased()
        state.worldlineMerchantId = merchants.worldline.merchantId
        state.antomAccountId = antom.id.uuidString.lowercased()
        state.antomClientId = merchants.antom.clientId
        state.sipsAccountId = sips.id.uuidString.lowercased()
        state.sipsMerchantId = merchants.sips.merchantId
        state.serverURL = serverURL
        state.sandboxURL = sandboxURL
        state.operatorToken = operatorToken
        try write(state, to: path)
        return state
    }

    private static func createTenant(store: PostgresStore, merchants: DemoSandboxMerchants, logger: Logger)
        async throws -> DemoState
    {
        let tenant = try await store.createTenant(name: "Demo Merchant", actor: actor)
        let key = try await store.createAPIKey(
            tenant: tenant.id, name: "demo", scopes: [.payments, .admin], expiresAt: nil, actor: actor)
        logger.info("demo tenant seeded", metadata: ["tenant.id": "\(tenant.id)"])
        return DemoState(
            serverURL: "", sandboxURL: "", operatorToken: "", tenantId: tenant.id.uuidString.lowercased(),
            apiKey: key.secret, citconAccountId: "", citconSandboxMerchant: merchants.citcon.id,
            citconPrivateKey: merchants.citcon.privateKey, citconIPNSecret: merchants.citcon.ipnSecret)
    }

    /// The account recorded under `id`, with its base URL brought up to date, or a new one.
    private static func ensureAccount(store: PostgresStore, tenant: UUID, id: String?, account: ProviderAccount)
        async throws -> (id: UUID, created: Bool)
    {
        if let id = id.flatMap(UUID.init(uuidString:)), var existing = try await store.account(tenant: tenant, id: id) {
            if existing.baseURL != account.baseURL {
                existing.baseURL = account.baseURL
                try await store.updateAccount(existing, actor: actor, changed: ["base_url"])
            }
            return (id, false)
        }
        return (try await store.createAccount(account, actor: actor).id, true)
    }

    private static func citconAccount(tenant: UUID, merchants: DemoSandboxMerchants, sandboxURL: String)
        -> ProviderAccount
    {
        ProviderAccount(
            id: UUID(), tenantId: tenant, name: "Citcon sandbox", pluginId: "citcon", environment: "sandbox",
            baseURL: sandboxURL + "/citcon",
            credentials: ["private_key": merchants.citcon.privateKey, "ipn_secret": merchants.citcon.ipnSecret],
            secretFields: ["private_key", "ipn_secret"], enabled: true, createdAt: Date())
    }

    private static func worldlineAccount(tenant: UUID, merchants: DemoSandboxMerchants, sandboxURL: String)
        -> ProviderAccount
    {
        let merchant = merchants.worldline
        return ProviderAccount(
            id: UUID(), tenantId: tenant, name: "Worldline Direct sandbox", pluginId: "worldline-direct",
            environment: "sandbox", baseURL: sandboxURL + "/worldline-direct",
            credentials: [
                "merchant_id": merchant.merchantId, "api_key_id": merchant.apiKeyId,
                "secret_api_key": merchant.secretApiKey, "webhook_key_id": merchant.webhookKeyId,
                "webhook_secret": merchant.webhookSecret,
            ],
            secretFields: ["secret_api_key", "webhook_secret"], enabled: true, createdAt: Date())
    }

    private static func antomAccount(tenant: UUID, merchants: DemoSandboxMerchants, sandboxURL: String)
        -> ProviderAccount
    {
        ProviderAccount(
            id: UUID(), tenantId: tenant, name: "Antom sandbox", pluginId: "antom", environment: "sandbox",
            baseURL: sandboxURL + "/antom",
            credentials: [
                "client_id": merchants.antom.clientId, "private_key": merchants.antomMerchantKey,
                "antom_public_key": merchants.antomProviderPublicKey,
            ],
            secretFields: ["private_key"],
            // Antom requires a redirect URL; shoppers of payments that name none come back here.
            options: ["return_url": "https://shop.example/return"], enabled: true, createdAt: Date())
    }

    private static func sipsAccount(tenant: UUID, merchants: DemoSandboxMerchants, sandboxURL: String)
        -> ProviderAccount
    {
        ProviderAccount(
            id: UUID(), tenantId: tenant, name: "Worldline Sips sandbox (SIMU merchant)", pluginId: "worldline-sips",
            environment: "sandbox", baseURL: sandboxURL + "/sips",
            credentials: [
                "merchant_id": merchants.sips.merchantId, "secret_key": merchants.sips.secretKey,
                "key_version": String(merchants.sips.keyVersion),
            ],
            secretFields: ["secret_key"], enabled: true, createdAt: Date())
    }

    static func write(_ state: DemoState, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try StateFile.write(String(decoding: try encoder.encode(state), as: UTF8.self) + "\n", to: path)
    }
}
