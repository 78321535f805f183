import Foundation
import ProviderSandbox
import SwitchyardCrypto

/// The Antom side of the test stack: its sandbox merchants and key, and merchants set up against them.
extension TestStack {
    static let antomClientId = AntomSandboxMerchant.testStackClientId
    /// Two more Antom merchants whose wallet users approve every session at once (for failover tests).
    static let antomInstantClients = AntomSandboxMerchant.testStackInstantClients
    /// The Antom merchant's signing key (the sandbox knows its public half).
    static var antomMerchantKey: RSAPrivateKey { AntomSandboxMerchant.testStackKey }

    /// A tenant with an API key, an Antom account at `baseURL` (default: the sandbox) and a route for
    /// wallets to it.
    func antomMerchant(
        name: String = "Wallet Shop", baseURL: String? = nil, options: [String: String] = TestStack.antomOptions
    ) async throws -> Merchant {
        try await merchant(
            name: name,
            account: [
                "plugin": "antom", "base_url": baseURL ?? sandboxURL + "/antom", "environment": "sandbox",
                "credentials": [
                    "client_id": Self.antomClientId, "private_key": Self.antomMerchantKey.pkcs8PEM,
                    "antom_public_key": try await sandbox.antom.publicKeyBase64(),
                ],
                "options": options,
            ],
            match: ["methods": ["gcash", "dana", "alipay_cn", "card"]])
    }

    /// The admin body of an Antom account for `clientId` at `baseURL` (default: the sandbox).
    func antomAccountBody(clientId: String = Self.antomClientId, baseURL: String? = nil) async throws -> [String: Any] {
        [
            "plugin": "antom", "base_url": baseURL ?? sandboxURL + "/antom", "environment": "sandbox",
            "name": clientId,
            "credentials": [
                "client_id": clientId, "private_key": Self.antomMerchantKey.pkcs8PEM,
                "antom_public_key": try await sandbox.antom.publicKeyBase64(),
            ],
            "options": Self.antomOptions,
        ]
    }

    /// The options of test Antom accounts: where shoppers return when a payment names no `return_url`.
    static let antomOptions = ["return_url": "https://shop.example/return"]
}
