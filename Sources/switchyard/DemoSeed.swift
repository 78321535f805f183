import Foundation
import Logging
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
    }
}

/// Seeds (once) and refreshes (every start) the demo tenant of the embedded default.
enum DemoSeed {
    /// The sandbox merchant credentials, stable across restarts.
    static func sandboxCredentials(dataDirectory: String) throws -> (privateKey: String, ipnSecret: String) {
        let privateKey = try StateFile.secret(at: dataDirectory + "/sandbox-citcon-private-key") {
            "demo_pk_" + SecureRandom.token(bytes: 18)
        }
        let ipnSecret = try StateFile.secret(at: dataDirectory + "/sandbox-citcon-ipn-secret") {
            "demo_ipn_" + SecureRandom.token(bytes: 18)
        }
        return (privateKey, ipnSecret)
    }

    static func seed(
        store: PostgresStore, dataDirectory: String, serverURL: String, sandboxURL: String, operatorToken: String,
        citcon: (privateKey: String, ipnSecret: String), logger: Logger
    ) async throws -> DemoState {
        let path = dataDirectory + "/demo.json"
        let citconBaseURL = sandboxURL + "/citcon"
        if let data = FileManager.default.contents(atPath: path),
            var state = try? JSONDecoder().decode(DemoState.self, from: data),
            let tenantId = UUID(uuidString: state.tenantId), try await store.tenant(id: tenantId) != nil,
            let accountId = UUID(uuidString: state.citconAccountId),
            var account = try await store.account(tenant: tenantId, id: accountId)
        {
            if account.baseURL != citconBaseURL {
                account.baseURL = citconBaseURL
                try await store.updateAccount(account, actor: "embedded-default", changed: ["base_url"])
            }
            state.serverURL = serverURL
            state.sandboxURL = sandboxURL
            state.operatorToken = operatorToken
            try write(state, to: path)
            return state
        }
        let tenant = try await store.createTenant(name: "Demo Merchant", actor: "embedded-default")
        let key = try await store.createAPIKey(
            tenant: tenant.id, name: "demo", scopes: [.payments, .admin], expiresAt: nil, actor: "embedded-default")
        let account = try await store.createAccount(
            ProviderAccount(
                id: UUID(), tenantId: tenant.id, name: "Citcon sandbox", pluginId: "citcon", environment: "sandbox",
                baseURL: citconBaseURL,
                credentials: ["private_key": citcon.privateKey, "ipn_secret": citcon.ipnSecret],
                secretFields: ["private_key", "ipn_secret"], enabled: true, createdAt: Date()),
            actor: "embedded-default")
        try await store.replaceRoutingRules(
            tenant: tenant.id,
            rules: [
                RoutingRule(
                    id: UUID(), name: "US wallets via Citcon",
                    match: .init(countries: ["US"], currencies: ["USD"], methods: ["alipay", "wechatpay"]),
                    accounts: [account.id])
            ],
            actor: "embedded-default")
        let state = DemoState(
            serverURL: serverURL, sandboxURL: sandboxURL, operatorToken: operatorToken,
            tenantId: tenant.id.uuidString.lowercased(), apiKey: key.secret,
            citconAccountId: account.id.uuidString.lowercased(), citconSandboxMerchant: "demo",
            citconPrivateKey: citcon.privateKey, citconIPNSecret: citcon.ipnSecret)
        try write(state, to: path)
        logger.info("demo tenant seeded", metadata: ["tenant.id": "\(tenant.id)"])
        return state
    }

    static func write(_ state: DemoState, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try StateFile.write(String(decoding: try encoder.encode(state), as: UTF8.self) + "\n", to: path)
    }
}
