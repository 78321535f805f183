import ProviderKit

extension CitconProvider {
    /// The plugin's manifest.
    public static let manifest = PluginManifest(
        id: "citcon", provider: "Citcon UPI", version: "1.0.0",
        flows: [.authorize, .capture, .void, .refund, .sync, .accessToken, .notification],
        methods: ["alipay", "wechatpay", "upop", "paypal", "venmo", "card", "cashapp"],
        currencies: [
            "USD", "CAD", "CNY", "HKD", "EUR", "GBP", "JPY", "AUD", "NZD", "SGD", "KRW", "TWD", "MYR", "THB",
            "PHP", "MOP",
        ],
        honoursIdempotencyKey: true, usesAccessToken: true,
        credentials: Credential.manifestFields
    )

    /// The account's credential fields (``CitconCredential``).
    typealias Credential = CitconCredential
}
