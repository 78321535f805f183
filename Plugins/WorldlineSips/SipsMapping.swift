#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Sips services the plugin calls; the raw value is the path under `/rs-services/v2/`.
enum SipsService: String, Sendable, CaseIterable, ProviderCallPath {
    case orderInitialize = "checkoutInApp/orderInitialize"
    case walletInitialize = "walletInApp/walletInitialize"
    case getTransactionData = "diagnostic/getTransactionData"
    case validate = "cashManagement/validate"
    case cancel = "cashManagement/cancel"
    case refund = "cashManagement/refund"
    case getWalletData = "wallet/getWalletData"
    case deletePaymentMean = "wallet/deletePaymentMean"

    /// Whether the call may move money (a capture, a cancellation or a refund); initialisations and inquiries
    /// never do.
    var movesMoney: Bool {
        switch self {
        case .validate, .cancel, .refund: return true
        case .orderInitialize, .walletInitialize, .getTransactionData, .getWalletData, .deletePaymentMean:
            return false
        }
    }

    /// The connector family, which decides the `interfaceVersion`.
    var interface: SipsInterface {
        switch self {
        case .orderInitialize, .walletInitialize: return .inApp
        case .getTransactionData: return .diagnostic
        case .validate, .cancel, .refund: return .cashManagement
        case .getWalletData, .deletePaymentMean: return .wallet
        }
    }
}

/// The connector families, each with its own `interfaceVersion`, taken from an account option.
enum SipsInterface: Sendable, CaseIterable {
    case inApp
    case cashManagement
    case diagnostic
    case wallet

    /// The account option that overrides the version.
    var option: String {
        switch self {
        case .inApp: return SipsMapping.Option.interfaceVersionInApp
        case .cashManagement: return SipsMapping.Option.interfaceVersionCash
        case .diagnostic: return SipsMapping.Option.interfaceVersionDiagnostic
        case .wallet: return SipsMapping.Option.interfaceVersionWallet
        }
    }

    /// The version used when the option is absent.
    var defaultVersion: String {
        switch self {
        case .inApp: return "IR_MB_3.0"
        case .cashManagement: return "CR_WS_2.27"
        case .diagnostic: return "DR_WS_2.9"
        case .wallet: return "WR_WS_2.27"
        }
    }
}

/// Pure mapping between Switchyard's requests and outcomes and Worldline Sips' wire types.
enum SipsMapping {
    /// The next action type of an In-App order.
    static let orderActionType = "sips_inapp"
    /// The next action type of an In-App wallet operation (adding a card).
    static let walletActionType = "sips_inapp_wallet"
    /// The credential kind of a Sips wallet card.
    static let cardKind = "card"
    /// `operationOrigin` of every cash management operation.
    static let operationOrigin = "SWITCHYARD"
    /// `orderChannel` of an In-App order.
    static let orderChannel = "INAPP"
    /// The `paymentData` key that asks for a 3-D Secure order.
    static let threeDSecureKey = "three_d_secure"
    /// Default and bounds of the lifetime announced for an In-App initialisation, in seconds.
    static let defaultSessionLifetime: Int64 = 900
    static let sessionLifetimeRange: ClosedRange<Int64> = 60...3_600
    /// The longest `transactionReference` Sips accepts.
    static let maxTransactionReferenceLength = 35
    /// The longest `orderId` Sips accepts.
    static let maxOrderIdLength = 32

    /// Account option names.
    enum Option {
        static let sessionLifetime = "session_lifetime_seconds"
        static let interfaceVersionInApp = "interface_version_inapp"
        static let interfaceVersionCash = "interface_version_cash"
        static let interfaceVersionDiagnostic = "interface_version_diagnostic"
        static let interfaceVersionWallet = "interface_version_wallet"
    }

    /// ISO 4217 numeric codes of the currencies the plugin supports, as Sips wants them (strings).
    static let currencyCodes: [String: String] = [
        "EUR": "978", "USD": "840", "GBP": "826", "CHF": "756", "JPY": "392", "SEK": "752", "DKK": "208",
        "NOK": "578", "PLN": "985", "AUD": "036", "CAD": "124",
    ]

    /// The numeric code of a currency.
    ///
    /// - Throws: `bad_request` (nothing sent) for a currency outside ``currencyCodes``.
    static func currencyCode(_ currency: String) throws -> String {
        guard let code = currencyCodes[currency.trimmingBlanks().uppercased()] else {
            throw ProviderError(code: "bad_request", message: "currency is not supported by Worldline Sips")
        }
        return code
    }

    /// The URL of a service: `<baseURL>/rs-services/v2/<service>`; nil when the base URL is not an absolute
    /// http(s) URL without query or fragment.
    static func endpoint(base: String, service: SipsService) -> String? {
        ProviderURL.endpoint(base: base, path: "/rs-services/v2/" + service.rawValue)?.url
    }

    /// The `interfaceVersion` of a connector family: the account option, else the default.
    static func interfaceVersion(_ interface: SipsInterface, options: [String: String]) -> String {
        options.nonBlank(interface.option) ?? interface.defaultVersion
    }

    /// The lifetime announced for an In-App initialisation: the option `session_lifetime_seconds` clamped to
    /// 60…3600, else 900 seconds.
    static func sessionLifetime(options: [String: String]) -> Int64 {
        options.integer(Option.sessionLifetime, default: defaultSessionLifetime, clampedTo: sessionLifetimeRange)
    }

    // MARK: References

    /// The text with every character other than an ASCII letter or digit removed.
    static func alphanumeric(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { ProviderText.isAlphanumeric($0) }))
    }

    /// The `transactionReference` of an attempt: its id without non-alphanumerics (`att_01…` → `att01…`).
    ///
    /// - Throws: `bad_request` (nothing sent) when nothing is left or the result exceeds 35 characters.
    static func transactionReference(attemptId: String) throws -> String {
        let reference = alphanumeric(attemptId)
        guard !reference.isEmpty, reference.count <= maxTransactionReferenceLength else {
            throw ProviderError(
                code: "bad_request", message: "the attempt id cannot be a Sips transaction reference")
        }
        return reference
    }

    /// The `transactionReference` of an existing payment: the provider id we recorded, else derived from the
    /// attempt id.
    static func transactionReference(_ payment: PaymentLocator) throws -> String {
        if let id = payment.providerPaymentId?.trimmingBlanks(), !id.isEmpty,
            id.count <= maxTransactionReferenceLength, id.unicodeScalars.allSatisfy(ProviderText.isAlphanumeric)
        {
            return id
        }
        return try transactionReference(attemptId: payment.attemptId)
    }

    /// The `merchantWalletId` of a vaulting: its id without non-alphanumerics (one Sips wallet per card).
    ///
    /// - Throws: `bad_request` (nothing sent) when nothing is left.
    static func merchantWalletId(vaultingId: String) throws -> String {
        let wallet = alphanumeric(vaultingId)
        guard !wallet.isEmpty else {
            throw ProviderError(code: "bad_request", message: "the vaulting id cannot be a Sips wallet id")
        }
        return wallet
    }

    /// The merchant reference as `orderId` when it is 1–32 letters, digits, `-` or `_`; nil otherwise.
    static func orderId(_ merchantReference: String) -> String? {
        let allowed =
            !merchantReference.isEmpty && merchantReference.count <= maxOrderIdLength
            && merchantReference.unicodeScalars.allSatisfy { ProviderText.isAlphanumeric($0) || $0 == "-" || $0 == "_" }
        return allowed ? merchantReference : nil
    }
}
