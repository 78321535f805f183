import ProviderKit

extension AntomProvider {
    /// The plugin's manifest.
    public static let manifest = PluginManifest(
        id: "antom", provider: "Antom", version: "1.0.0",
        flows: [
            .authorize, .capture, .void, .refund, .sync, .syncRefund, .notification, .vaultingSession, .syncVaulting,
        ],
        methods: ["alipay_cn", "alipay_hk", "gcash", "dana", "kakaopay", "tng", "truemoney", "card"],
        currencies: [
            "USD", "EUR", "GBP", "HKD", "CNY", "PHP", "IDR", "MYR", "THB", "KRW", "SGD", "JPY", "AUD",
        ],
        honoursIdempotencyKey: true,
        credentials: Credential.manifestFields
    )

    /// The account's credential fields (``AntomCredential``).
    typealias Credential = AntomCredential
}
