/// A sealed JSON service of the emulator, at `/sips/rs-services/v2/<path>`.
enum SipsService: String, Sendable, CaseIterable {
    case orderInitialize = "checkoutInApp/orderInitialize"
    case walletInitialize = "walletInApp/walletInitialize"
    case getTransactionData = "diagnostic/getTransactionData"
    case validate = "cashManagement/validate"
    case cancel = "cashManagement/cancel"
    case refund = "cashManagement/refund"
    case getWalletData = "wallet/getWalletData"
    case deletePaymentMean = "wallet/deletePaymentMean"

    /// The path after `rs-services/v2/`, also the name the `respond99` fault uses.
    var path: String { rawValue }

    /// The prefix `interfaceVersion` must have.
    var interfacePrefix: String {
        switch self {
        case .orderInitialize, .walletInitialize: "IR_MB_"
        case .getTransactionData: "DR_WS_"
        case .validate, .cancel, .refund: "CR_WS_"
        case .getWalletData, .deletePaymentMean: "WR_WS_"
        }
    }

    /// The member carrying the service's response code.
    var codeField: String {
        switch self {
        case .orderInitialize, .walletInitialize: "redirectionStatusCode"
        case .getWalletData, .deletePaymentMean: "walletResponseCode"
        case .getTransactionData, .validate, .cancel, .refund: "responseCode"
        }
    }
}

/// A function of the In-App SDK, at `/sips/inapp/<name>` (unsealed requests, sealed answers).
enum SipsAppFunction: String, Sendable, CaseIterable {
    case cardOrder
    case walletOrder
    case cardCheckEnrollment
    case walletCheckEnrollment
    case cardValidateAuthenticationAndOrder
    case addCard
    case getWalletData
    case deletePaymentMean

    /// The name the `respond99` fault uses, e.g. `inapp/cardOrder`.
    var faultName: String { "inapp/" + rawValue }

    /// The `sdkOperationName` the init context must have been created with.
    var operation: String? {
        switch self {
        case .cardOrder: "CARDORDER"
        case .walletOrder: "WALLETORDER"
        case .cardCheckEnrollment: "THREEDSECUREANDORDER"
        case .walletCheckEnrollment: "THREEDSECUREANDWALLETORDER"
        case .cardValidateAuthenticationAndOrder: nil
        case .addCard: "ADDCARD"
        case .getWalletData: "GETWALLETDATA"
        case .deletePaymentMean: "DELETEPAYMENTMEAN"
        }
    }

    /// The member carrying the function's response code.
    var codeField: String {
        switch self {
        case .cardCheckEnrollment, .walletCheckEnrollment: "redirectionStatusCode"
        default: "inAppResponseCode"
        }
    }

    /// The functions by their `respond99` fault name.
    static let byFaultName: [String: SipsAppFunction] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.faultName, $0) })
}

/// The `sdkOperationName` values of the two init services.
enum SipsOperation {
    static let orders: Set<String> = ["CARDORDER", "THREEDSECUREANDORDER", "WALLETORDER", "THREEDSECUREANDWALLETORDER"]
    static let walletOrders: Set<String> = ["WALLETORDER", "THREEDSECUREANDWALLETORDER"]
    static let walletManagement: Set<String> = ["ADDCARD", "GETWALLETDATA", "DELETEPAYMENTMEAN"]
}
