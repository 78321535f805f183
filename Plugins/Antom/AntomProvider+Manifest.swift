import ProviderKit

extension AntomProvider {
    /// The plugin's manifest: it answers disputes through Antom's `acceptDispute` and `supplyDefenseDocument`.
    public static let manifest: PluginManifest = {
        var manifest = baseManifest
        manifest.answersDisputes = true
        return manifest
    }()

    static let baseManifest = PluginManifest(
        id: "antom", provider: "Antom", version: "1.0.0",
        flows: [
            .authorize, .capture, .void, .refund, .sync, .syncRefund, .notification, .vaultingSession, .syncVaulting,
        ],
        methods: ["alipay_cn", "alipay_hk", "gcash", "dana", "kakaopay", "tng", "truemoney", "card"],
        currencies: [
            "USD", "EUR", "GBP", "HKD", "CNY", "PHP", "IDR", "MYR", "THB", "KRW", "SGD", "JPY", "AUD",
        ],
        honoursIdempotencyKey: true,
        credentials: Credential.manifestFields,
        methodSupport: methodSupport
    )

    /// Cards are bound through the AMSVaulting SDK and paid only with the stored card (authorisation and
    /// later capture possible); wallets pay through the AMSEasyPay SDK (EasySafePay), captured at once, and can
    /// set up an agreement for password-free payments. Local wallets take their own currency only.
    static let methodSupport: [MethodSupport] = {
        let easyPay = AppIntegration(
            flow: "sdk_session", sdk: "AMSEasyPay", nextAction: AntomMapping.paymentSessionActionType,
            sessionFields: ["paymentSessionData", "paymentSessionId", "paymentSessionExpiryTime", "normalUrl"])
        let vaulting = AppIntegration(
            flow: "sdk_session", sdk: "AMSVaulting", nextAction: AntomMapping.vaultingSessionActionType,
            sessionFields: ["vaultingSessionData", "vaultingSessionId", "vaultingSessionExpiryTime", "normalUrl"])
        func wallet(_ method: String, _ currencies: [String] = []) -> MethodSupport {
            MethodSupport(method: method, currencies: currencies, storable: true, delayedCapture: false, app: easyPay)
        }
        return [
            wallet("alipay_cn"), wallet("alipay_hk", ["HKD"]), wallet("gcash", ["PHP"]), wallet("dana", ["IDR"]),
            wallet("kakaopay", ["KRW"]), wallet("tng", ["MYR"]), wallet("truemoney", ["THB"]),
            MethodSupport(
                method: "card", storable: true, delayedCapture: true, requiresStoredMethod: true, app: vaulting),
        ]
    }()

    /// The account's credential fields (``AntomCredential``).
    typealias Credential = AntomCredential
}
