#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Antom calls the plugin makes; the raw value is the path under `/ams/api/v1/`.
enum AntomCall: String, Sendable, CaseIterable, ProviderCallPath {
    case createPaymentSession = "payments/createPaymentSession"
    case pay = "payments/pay"
    case inquiryPayment = "payments/inquiryPayment"
    case cancel = "payments/cancel"
    case refund = "payments/refund"
    case inquiryRefund = "payments/inquiryRefund"
    case capture = "payments/capture"
    case createVaultingSession = "vaults/createVaultingSession"
    case inquireVaulting = "vaults/inquireVaulting"
    case acceptDispute = "payments/acceptDispute"
    case supplyDefenseDocument = "payments/supplyDefenseDocument"
}

/// Pure mapping between Switchyard's requests and outcomes and Antom's wire types.
enum AntomMapping {
    /// The next action type of an EasySafePay payment session.
    static let paymentSessionActionType = "antom_payment_session"
    /// The next action type of a card-vaulting session.
    static let vaultingSessionActionType = "antom_vaulting_session"
    /// Default and bounds of the payment session lifetime (Antom allows at most one hour).
    static let defaultSessionLifetime: Int64 = 3_600
    static let sessionLifetimeRange: ClosedRange<Int64> = 60...3_600
    /// The credential kinds a stored credential may have.
    static let walletAgreementKind = "wallet_agreement"
    static let cardKind = "card"

    /// How long after an attempt's start `inquiryPayment` answering `ORDER_NOT_EXIST` for our request id proves
    /// the request never reached Antom. A request that timed out may still be processed (PROVIDERS.md §3.10:
    /// HTTP errors and timeouts are unknown outcomes), so the default is well past any provider timeout; the
    /// account option `not_found_delay_seconds` overrides it.
    static let notFoundDelay: TimeInterval = 60
    /// Antom's result code for a payment, refund or capture it does not know.
    static let orderNotExist = "ORDER_NOT_EXIST"

    /// Account option names.
    enum Option {
        static let sessionLifetime = "session_lifetime_seconds"
        static let settlementCurrency = "settlement_currency"
        static let productScene = "product_scene"
        static let merchantRegion = "merchant_region"
        static let returnURL = "return_url"
    }

    /// The API path of a call: `/ams/api/v1/<call>`, or `/ams/sandbox/api/v1/<call>` for a `SANDBOX_` client.
    static func apiPath(_ call: AntomCall, clientId: String) -> String {
        (clientId.hasPrefix("SANDBOX_") ? "/ams/sandbox/api/v1/" : "/ams/api/v1/") + call.rawValue
    }

    /// The URL of a call and its path as it appears on the wire (the base URL's own path included), which is
    /// what is signed; nil when the base URL is not an absolute http(s) URL.
    static func endpoint(base: String, call: AntomCall, clientId: String) -> ProviderURL.Endpoint? {
        ProviderURL.endpoint(base: base, path: apiPath(call, clientId: clientId))
    }

    /// The payment session lifetime in seconds: the option `session_lifetime_seconds` clamped to 60…3600,
    /// else one hour.
    static func sessionLifetime(options: [String: String]) -> Int64 {
        options.integer(Option.sessionLifetime, default: defaultSessionLifetime, clampedTo: sessionLifetimeRange)
    }

    /// Antom's `paymentMethodType` for a Switchyard method: `alipay_cn` → `ALIPAY_CN`.
    static func paymentMethodType(_ method: String) -> String {
        method.uppercased()
    }

    // MARK: Times

    /// ISO-8601 with a numeric offset and second precision, in UTC: `2026-11-21T12:00:00+00:00`.
    static func isoTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let year = String(parts.year ?? 1970)
        return "\(year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):"
            + "\(two(parts.second))+00:00"
    }

    /// Parses an ISO-8601 time with an offset or `Z`, with or without fractional seconds.
    static func parseTime(_ text: String?) -> Date? {
        text.flatMap(ProviderTime.iso8601)
    }
}
