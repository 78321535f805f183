import Foundation
import SwitchyardCrypto

extension SandboxRegistration {
    /// The Antom (EasySafePay and vaulting) emulator, served to the `antom` plugin.
    static let antom = SandboxRegistration(
        AntomSandbox.self, name: "antom", pluginID: "antom", pluginProduct: "AntomPlugin",
        options: [
            .list(
                "antom-merchant", form: "client_id:public_key_file (a readable PEM or base64 file)",
                help: """
                    Antom merchant as client_id:path_of_the_merchant_public_key_file (PEM or base64 SPKI; \
                    repeatable).
                    """,
                parse: AntomSandboxMerchant.init(commandLine:), set: { $1.antom.merchants = $0 })
        ],
        check: { configuration throws(SandboxCommandLineError) in
            do throws(AntomSandboxError) {
                try configuration.antom.validate()
            } catch {
                throw SandboxCommandLineError("--antom-merchant: \(error.message)")
            }
        },
        demo: { secrets in
            let merchantKey = try secrets.secret("sandbox-antom-merchant-key.pem") {
                (try? RSAPrivateKey.generate().pkcs8PEM) ?? ""
            }
            // The sandbox's own key is kept too, so its public key stays the one the account knows.
            let providerKey = try secrets.secret("sandbox-antom-provider-key.pem") {
                (try? RSAPrivateKey.generate().pkcs8PEM) ?? ""
            }
            let merchant = AntomSandboxMerchant(
                clientId: "SANDBOX_5D00000000000001",
                merchantPublicKey: try RSAPrivateKey(pem: merchantKey).publicKey.pem)
            return SandboxDemo(
                stateKey: "antom", accountName: "Antom sandbox",
                credentials: [
                    "client_id": merchant.clientId, "private_key": merchantKey,
                    "antom_public_key": try RSAPrivateKey(pem: providerKey).publicKey.pem,
                ],
                // Antom requires a redirect URL; shoppers of payments that name none come back here.
                options: ["return_url": "https://shop.example/return"],
                route: .init(
                    name: "Asian wallets via Antom EasySafePay",
                    methods: ["gcash", "dana", "alipay_cn", "alipay_hk", "kakaopay", "tng", "truemoney"]),
                state: ["antom_client_id": merchant.clientId],
                configure: {
                    $0.antom.merchants = [merchant]
                    $0.antom.privateKeyPEM = providerKey
                })
        },
        testStack: { configuration in
            let publicKey = AntomSandboxMerchant.testStackKey.publicKey.pem
            configuration.antom.merchants =
                [AntomSandboxMerchant(clientId: AntomSandboxMerchant.testStackClientId, merchantPublicKey: publicKey)]
                + AntomSandboxMerchant.testStackInstantClients.map {
                    AntomSandboxMerchant(clientId: $0, merchantPublicKey: publicKey, approvesSessionsAtOnce: true)
                }
        })
}

extension AntomSandboxConfiguration: SandboxEmulatorSettings {
    /// No merchants, a key generated on first use, Antom's session lifetimes.
    public init() { self.init(merchants: []) }
}

extension SandboxConfiguration {
    /// The Antom emulator's merchants, key and behaviour.
    public var antom: AntomSandboxConfiguration {
        get { self[AntomSandboxConfiguration.self] }
        set { self[AntomSandboxConfiguration.self] = newValue }
    }
}

extension AntomSandbox: RegisteredEmulator {}

extension SandboxServer {
    /// The Antom (EasySafePay and vaulting) emulator.
    public var antom: AntomSandbox { emulator(AntomSandbox.self) }
}

extension AntomSandboxMerchant {
    /// A merchant from `switchyard sandbox --antom-merchant client_id:public_key_file`; nil when malformed
    /// or the file cannot be read.
    init?(commandLine spec: String) {
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty,
            let key = try? String(contentsOfFile: parts[1], encoding: .utf8)
        else { return nil }
        self.init(clientId: parts[0], merchantPublicKey: key)
    }
}

extension AntomSandboxMerchant {
    /// The Antom merchant of the end-to-end test stack.
    public static let testStackClientId = "SANDBOX_5Y00000000000001"
    /// Two more test-stack merchants whose wallet users approve every session at once (for failover tests).
    public static let testStackInstantClients = ["SANDBOX_5Y00000000000002", "SANDBOX_5Y00000000000003"]
    /// The test-stack merchants' signing key (the emulator knows its public half), made on first use.
    public static let testStackKey: RSAPrivateKey = {
        do { return try RSAPrivateKey.generate() } catch { fatalError("RSA key generation failed: \(error)") }
    }()
}
