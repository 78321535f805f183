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
        credentials: Credential.manifestFields,
        methodSupport: [
            // The app places the order with the Sips In-App SDK; cards can be kept in a wallet, and a
            // manual capture is a `VALIDATION` order.
            MethodSupport(
                method: "card", storable: true, delayedCapture: true,
                app: AppIntegration(
                    flow: "sdk_session", sdk: "Sips In-App SDK", nextAction: SipsMapping.orderActionType,
                    sessionFields: [
                        "redirectionData", "redirectionUrl", "redirectionVersion", "publicKeyValue", "sdkOperationName",
                        "transactionReference",
                    ]))
        ]
    )

    /// The account's credential fields (``SipsCredential``).
    typealias Credential = SipsCredential
}
