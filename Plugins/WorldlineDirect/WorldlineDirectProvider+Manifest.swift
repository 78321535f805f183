import ProviderKit

extension WorldlineDirectProvider {
    /// The plugin's manifest.
    public static let manifest = PluginManifest(
        id: "worldline-direct", provider: "Worldline Direct", version: "1.0.0",
        flows: [.authorize, .complete, .capture, .void, .refund, .sync, .notification],
        methods: ["card"],
        currencies: [
            "EUR", "USD", "GBP", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RON", "CAD", "AUD", "NZD",
            "JPY", "HKD", "SGD",
        ],
        honoursIdempotencyKey: true,
        credentials: Credential.manifestFields
    )

    /// The account's credential fields (``WorldlineDirectCredential``).
    typealias Credential = WorldlineDirectCredential
}
