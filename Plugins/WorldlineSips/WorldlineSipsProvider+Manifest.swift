import ProviderKit

extension WorldlineSipsProvider {
    /// The plugin's manifest.
    public static let manifest = PluginManifest(
        id: "worldline-sips", provider: "Worldline Sips", version: "1.0.0",
        flows: [
            .authorize, .complete, .capture, .void, .refund, .sync, .notification, .vaultingSession, .syncVaulting,
            .revokeCredential,
        ],
        methods: ["card"],
        currencies: ["EUR", "USD", "GBP", "CHF", "JPY", "SEK", "DKK", "NOK", "PLN", "AUD", "CAD"],
        honoursIdempotencyKey: false,
        credentials: Credential.manifestFields
    )

    /// The account's credential fields (``SipsCredential``).
    typealias Credential = SipsCredential
}
