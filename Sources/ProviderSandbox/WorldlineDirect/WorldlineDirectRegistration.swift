import SwitchyardCrypto

extension SandboxRegistration {
    /// The Worldline Direct emulator, served to the `worldline-direct` plugin.
    static let worldlineDirect = SandboxRegistration(
        WorldlineDirectSandbox.self, name: "worldline-direct", pluginID: "worldline-direct",
        pluginProduct: "WorldlineDirectPlugin",
        options: [
            .list(
                "worldline-merchant",
                form: "merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret[:webhook_url]",
                help: """
                    Worldline Direct merchant as \
                    merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret[:webhook_url] (repeatable).
                    """,
                parse: WorldlineDirectSandboxMerchant.init(commandLine:), set: { $1.worldlineDirect.merchants = $0 })
        ],
        demo: { secrets in
            let merchant = WorldlineDirectSandboxMerchant(
                merchantId: "demo-merchant", apiKeyId: "demo-api-key",
                secretApiKey: try secrets.secret("sandbox-worldline-secret-api-key") { SecureRandom.token(bytes: 24) },
                webhookKeyId: "demo-webhook-key",
                webhookSecret: try secrets.secret("sandbox-worldline-webhook-secret") {
                    SecureRandom.token(bytes: 24)
                })
            return SandboxDemo(
                stateKey: "worldline", accountName: "Worldline Direct sandbox",
                credentials: [
                    "merchant_id": merchant.merchantId, "api_key_id": merchant.apiKeyId,
                    "secret_api_key": merchant.secretApiKey, "webhook_key_id": merchant.webhookKeyId,
                    "webhook_secret": merchant.webhookSecret,
                ],
                options: [:],
                route: .init(name: "Cards in euros via Worldline Direct", currencies: ["EUR"], methods: ["card"]),
                state: ["worldline_merchant_id": merchant.merchantId],
                configure: { $0.worldlineDirect.merchants = [merchant] })
        },
        testStack: { $0.worldlineDirect.merchants = [.testStack] })
}

extension WorldlineDirectSandboxConfiguration: SandboxEmulatorSettings {
    /// No merchants, Worldline's session lifetime and date skew, a 2048-bit encryption key.
    public init() { self.init(merchants: []) }
}

extension SandboxConfiguration {
    /// The Worldline Direct emulator's merchants and behaviour.
    public var worldlineDirect: WorldlineDirectSandboxConfiguration {
        get { self[WorldlineDirectSandboxConfiguration.self] }
        set { self[WorldlineDirectSandboxConfiguration.self] = newValue }
    }
}

extension WorldlineDirectSandbox: RegisteredEmulator {}

extension SandboxServer {
    /// The Worldline Direct emulator.
    public var worldlineDirect: WorldlineDirectSandbox { emulator(WorldlineDirectSandbox.self) }
}

extension WorldlineDirectSandboxMerchant {
    /// A merchant from `switchyard sandbox --worldline-merchant
    /// merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret[:webhook_url]`; nil when malformed.
    init?(commandLine spec: String) {
        let parts = spec.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 5, !parts.prefix(5).contains(where: \.isEmpty) else { return nil }
        self.init(
            merchantId: parts[0], apiKeyId: parts[1], secretApiKey: parts[2], webhookKeyId: parts[3],
            webhookSecret: parts[4], webhookURL: parts.count == 6 && !parts[5].isEmpty ? parts[5] : nil)
    }
}

extension WorldlineDirectSandboxMerchant {
    /// The Worldline Direct merchant of the end-to-end test stack.
    public static let testStack = WorldlineDirectSandboxMerchant(
        merchantId: "wl1", apiKeyId: "KEY_WL_1", secretApiKey: "wl_secret_key_0123456789",
        webhookKeyId: "WHK_WL_1", webhookSecret: "wl_webhook_secret_0123456789")
}
