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
        credentials: Credential.manifestFields,
        methodSupport: methodSupport
    )

    /// Every method pays through Citcon's mobile SDK with the pending charge's token; nothing is stored.
    /// Card, PayPal and Venmo charges can be authorised and captured later; Venmo and Cash App are US
    /// wallets paying in dollars.
    static let methodSupport: [MethodSupport] = {
        let sdk = AppIntegration(
            flow: "sdk_session", sdk: "CPaySDK", nextAction: "citcon_sdk",
            sessionFields: ["charge_token", "client_token", "environment"])
        func method(_ name: String, delayedCapture: Bool, countries: [String] = [], currencies: [String] = [])
            -> MethodSupport
        {
            MethodSupport(
                method: name, countries: countries, currencies: currencies, storable: false,
                delayedCapture: delayedCapture, app: sdk)
        }
        return [
            method("alipay", delayedCapture: false), method("wechatpay", delayedCapture: false),
            method("upop", delayedCapture: false), method("paypal", delayedCapture: true),
            method("venmo", delayedCapture: true, countries: ["US"], currencies: ["USD"]),
            method("card", delayedCapture: true),
            method("cashapp", delayedCapture: false, countries: ["US"], currencies: ["USD"]),
        ]
    }()

    /// The account's credential fields (``CitconCredential``).
    typealias Credential = CitconCredential
}
