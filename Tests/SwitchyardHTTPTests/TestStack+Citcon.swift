import Foundation
import ProviderSandbox

/// The Citcon side of the test stack: its sandbox merchant and a merchant set up against it.
extension TestStack {
    static let citconMerchant = CitconSandboxMerchant.testStack

    static func citconPluginPath() throws -> String { try pluginPath("libCitconPlugin.so") }

    /// A tenant with an API key, a Citcon account at `citconBaseURL` (default: the sandbox) and a route
    /// for US/USD wallets to it.
    func merchant(name: String = "Shop", citconBaseURL: String? = nil) async throws -> Merchant {
        try await merchant(
            name: name,
            account: [
                "plugin": "citcon", "base_url": citconBaseURL ?? sandboxURL + "/citcon", "environment": "sandbox",
                "credentials": [
                    "private_key": Self.citconMerchant.privateKey, "ipn_secret": Self.citconMerchant.ipnSecret,
                ],
            ],
            match: ["countries": ["US"], "currencies": ["USD"]])
    }
}
