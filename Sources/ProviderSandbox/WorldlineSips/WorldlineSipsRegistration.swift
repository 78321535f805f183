extension SandboxRegistration {
    /// The Worldline Sips 2.0 emulator, served to the `worldline-sips` plugin.
    static let worldlineSips = SandboxRegistration(
        WorldlineSipsSandbox.self, name: "sips", pluginID: "worldline-sips", pluginProduct: "WorldlineSipsPlugin",
        options: [
            .list(
                "sips-merchant", form: "merchant_id:secret_key[:key_version]",
                help: """
                    Worldline Sips merchant as merchant_id:secret_key[:key_version] (repeatable; default: the public \
                    SIMU test merchants 002001000000001 to 002001000000003).
                    """,
                fallback: WorldlineSipsSandboxMerchant.publicTestMerchants,
                parse: WorldlineSipsSandboxMerchant.init(commandLine:), set: { $1.sips.merchants = $0 })
        ],
        demo: { _ in
            // The public SIMU test merchant: its secret is published, so nothing is kept.
            let merchant = WorldlineSipsSandboxMerchant.publicTestMerchants[0]
            return SandboxDemo(
                stateKey: "sips", accountName: "Worldline Sips sandbox (SIMU merchant)",
                credentials: [
                    "merchant_id": merchant.merchantId, "secret_key": merchant.secretKey,
                    "key_version": String(merchant.keyVersion),
                ],
                options: [:],
                route: .init(
                    name: "Cards in France via Worldline Sips", countries: ["FR"], currencies: ["EUR"],
                    methods: ["card"]),
                state: ["sips_merchant_id": merchant.merchantId],
                configure: { $0.sips.merchants = WorldlineSipsSandboxMerchant.publicTestMerchants })
        },
        testStack: { $0.sips.merchants = [WorldlineSipsSandboxMerchant.publicTestMerchants[0]] })
}

extension WorldlineSipsSandboxConfiguration: SandboxEmulatorSettings {
    /// No merchants, the In-App init lifetime of Sips, HMAC-SHA-256 automatic responses.
    public init() { self.init(merchants: []) }
}

extension SandboxConfiguration {
    /// The Worldline Sips emulator's merchants and behaviour.
    public var sips: WorldlineSipsSandboxConfiguration {
        get { self[WorldlineSipsSandboxConfiguration.self] }
        set { self[WorldlineSipsSandboxConfiguration.self] = newValue }
    }
}

extension WorldlineSipsSandbox: RegisteredEmulator {}

extension SandboxServer {
    /// The Worldline Sips 2.0 (In-App and Office) emulator.
    public var sips: WorldlineSipsSandbox { emulator(WorldlineSipsSandbox.self) }
}

extension WorldlineSipsSandboxMerchant {
    /// A merchant from `switchyard sandbox --sips-merchant merchant_id:secret_key[:key_version]`; nil when
    /// malformed.
    init?(commandLine spec: String) {
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let version = parts.count == 3 ? Int(parts[2]) : 1
        guard let version else { return nil }
        self.init(merchantId: parts[0], secretKey: parts[1], keyVersion: version)
    }
}
