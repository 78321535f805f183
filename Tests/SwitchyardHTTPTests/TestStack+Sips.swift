import Foundation
import ProviderSandbox

/// The Worldline Sips side of the test stack: its sandbox merchant and a merchant set up against it.
extension TestStack {
    /// The Worldline Sips merchant: the first public SIMU test merchant.
    static let sipsMerchant = WorldlineSipsSandboxMerchant.publicTestMerchants[0]

    /// A tenant with an API key, a Worldline Sips account at `baseURL` (default: the sandbox) and a route
    /// for cards to it.
    func sipsMerchant(name: String = "Maison", baseURL: String? = nil, options: [String: String] = [:]) async throws
        -> Merchant
    {
        try await merchant(
            name: name,
            account: [
                "plugin": "worldline-sips", "base_url": baseURL ?? sandboxURL + "/sips", "environment": "sandbox",
                "credentials": [
                    "merchant_id": Self.sipsMerchant.merchantId, "secret_key": Self.sipsMerchant.secretKey,
                    "key_version": String(Self.sipsMerchant.keyVersion),
                ],
                "options": options,
            ],
            match: ["methods": ["card"]])
    }
}
