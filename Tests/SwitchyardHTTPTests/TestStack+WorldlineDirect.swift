import Foundation
import ProviderSandbox

/// The Worldline Direct side of the test stack: its sandbox merchant and a merchant set up against it.
extension TestStack {
    static let worldlineMerchant = WorldlineDirectSandboxMerchant.testStack

    /// A tenant with an API key, a Worldline Direct account at `baseURL` (default: the sandbox) and a
    /// route for EUR cards to it.
    func worldlineMerchant(name: String = "Boutique", baseURL: String? = nil) async throws -> Merchant {
        let merchant = Self.worldlineMerchant
        return try await self.merchant(
            name: name,
            account: [
                "plugin": "worldline-direct", "base_url": baseURL ?? sandboxURL + "/worldline-direct",
                "environment": "sandbox",
                "credentials": [
                    "merchant_id": merchant.merchantId, "api_key_id": merchant.apiKeyId,
                    "secret_api_key": merchant.secretApiKey, "webhook_key_id": merchant.webhookKeyId,
                    "webhook_secret": merchant.webhookSecret,
                ],
            ],
            match: ["currencies": ["EUR"], "methods": ["card"]])
    }
}
