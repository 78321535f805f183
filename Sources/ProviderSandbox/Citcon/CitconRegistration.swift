import Foundation
import SwitchyardCrypto

extension SandboxRegistration {
    /// The Citcon UPI emulator, served to the `citcon` plugin.
    static let citcon = SandboxRegistration(
        CitconSandbox.self, name: "citcon", pluginID: "citcon", pluginProduct: "CitconPlugin",
        options: [
            .list(
                "citcon-merchant", form: "id:private_key:ipn_secret",
                help: "Citcon merchant as id:private_key:ipn_secret (repeatable).",
                parse: CitconSandboxMerchant.init(commandLine:), set: { $1.citcon.merchants = $0 }),
            SandboxOption(
                name: "citcon-charge-lifetime",
                help: "Seconds a Citcon charge waits for the app's confirm before it expires (default 1800)."
            ) { values, configuration throws(SandboxCommandLineError) in
                guard let value = values.last else { return }
                guard let seconds = Int(value), seconds > 0 else {
                    throw SandboxCommandLineError("--citcon-charge-lifetime must be positive")
                }
                configuration.citcon.pendingChargeLifetime = TimeInterval(seconds)
            },
        ],
        demo: { secrets in
            let merchant = CitconSandboxMerchant(
                id: "demo",
                privateKey: try secrets.secret("sandbox-citcon-private-key") {
                    "demo_pk_" + SecureRandom.token(bytes: 18)
                },
                ipnSecret: try secrets.secret("sandbox-citcon-ipn-secret") {
                    "demo_ipn_" + SecureRandom.token(bytes: 18)
                })
            return SandboxDemo(
                stateKey: "citcon", accountName: "Citcon sandbox",
                credentials: ["private_key": merchant.privateKey, "ipn_secret": merchant.ipnSecret], options: [:],
                route: .init(
                    name: "US wallets via Citcon", countries: ["US"], currencies: ["USD"],
                    methods: ["alipay", "wechatpay"]),
                state: [
                    "citcon_sandbox_merchant": merchant.id, "citcon_private_key": merchant.privateKey,
                    "citcon_ipn_secret": merchant.ipnSecret,
                ],
                configure: { $0.citcon.merchants = [merchant] })
        },
        testStack: { $0.citcon.merchants = [.testStack] })
}

extension CitconSandboxConfiguration: SandboxEmulatorSettings {
    /// No merchants, Citcon's lifetimes, IPNs as forms.
    public init() { self.init(merchants: []) }
}

extension SandboxConfiguration {
    /// The Citcon UPI emulator's merchants and behaviour.
    public var citcon: CitconSandboxConfiguration {
        get { self[CitconSandboxConfiguration.self] }
        set { self[CitconSandboxConfiguration.self] = newValue }
    }
}

extension CitconSandbox: RegisteredEmulator {}

extension SandboxServer {
    /// The Citcon UPI emulator.
    public var citcon: CitconSandbox { emulator(CitconSandbox.self) }
}

extension CitconSandboxMerchant {
    /// A merchant from `switchyard sandbox --citcon-merchant id:private_key:ipn_secret`; nil when malformed.
    init?(commandLine spec: String) {
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, !parts.contains(where: \.isEmpty) else { return nil }
        self.init(id: parts[0], privateKey: parts[1], ipnSecret: parts[2])
    }
}

extension CitconSandboxMerchant {
    /// The Citcon merchant of the end-to-end test stack.
    public static let testStack = CitconSandboxMerchant(
        id: "m1", privateKey: "test_private_key_0123456789", ipnSecret: "test_ipn_secret_0123456789")
}
