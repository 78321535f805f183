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
        credentials: Credential.manifestFields,
        methodSupport: [
            // The app opens OnlinePaymentsKit with the client session, encrypts the card and sends it back;
            // a manual capture is a final authorisation. No tokens are kept.
            MethodSupport(
                method: "card", storable: false, delayedCapture: true,
                app: AppIntegration(
                    flow: "encrypted_card", sdk: "OnlinePaymentsKit",
                    nextAction: WorldlineDirectMapping.sessionActionType,
                    sessionFields: ["clientSessionId", "customerId", "clientApiUrl", "assetUrl"],
                    paymentData: [WorldlineDirectMapping.encryptedInputKey]))
        ]
    )

    /// The account's credential fields (``WorldlineDirectCredential``).
    typealias Credential = WorldlineDirectCredential
}
