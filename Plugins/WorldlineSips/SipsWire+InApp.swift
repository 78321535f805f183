#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `checkoutInApp/orderInitialize` body: prepares an In-App order for the app's InAppSdk.
struct SipsOrderInitializeRequest: SipsSealedRequest, Equatable {
    var amount: Int64
    var automaticResponseUrl: String
    var captureDay: Int
    var captureMode: String
    var currencyCode: String
    var customerId: String?
    var interfaceVersion: String
    var keyVersion: Int
    var merchantId: String
    var merchantWalletId: String?
    var orderChannel: String
    var orderId: String?
    var returnContext: String
    var sdkOperationName: String
    var sealAlgorithm: String
    var seal: String?
    var transactionReference: String
}

/// `walletInApp/walletInitialize` body: prepares a wallet operation (adding a card) for the InAppSdk.
struct SipsWalletInitializeRequest: SipsSealedRequest, Equatable {
    var interfaceVersion: String
    var keyVersion: Int
    var merchantId: String
    var merchantWalletId: String
    var sdkOperationName: String
    var sealAlgorithm: String
    var seal: String?
}

/// The answer to both In-App initialisations: what the InAppSdk needs for the operation.
struct SipsInitializeResponse: Decodable, Sendable, Equatable {
    var redirectionStatusCode: String?
    var redirectionStatusMessage: String?
    var redirectionData: String?
    var redirectionUrl: String?
    var redirectionVersion: String?
    var publicKeyValue: String?
    var errorFieldName: String?

    init(
        redirectionStatusCode: String? = nil, redirectionStatusMessage: String? = nil, redirectionData: String? = nil,
        redirectionUrl: String? = nil, redirectionVersion: String? = nil, publicKeyValue: String? = nil,
        errorFieldName: String? = nil
    ) {
        self.redirectionStatusCode = redirectionStatusCode
        self.redirectionStatusMessage = redirectionStatusMessage
        self.redirectionData = redirectionData
        self.redirectionUrl = redirectionUrl
        self.redirectionVersion = redirectionVersion
        self.publicKeyValue = publicKeyValue
        self.errorFieldName = errorFieldName
    }

    private enum CodingKeys: String, CodingKey {
        case redirectionStatusCode, redirectionStatusMessage, redirectionData, redirectionUrl, redirectionVersion
        case publicKeyValue, errorFieldName
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        redirectionStatusCode = c.sipsText(.redirectionStatusCode)
        redirectionStatusMessage = c.sipsText(.redirectionStatusMessage)
        redirectionData = c.sipsText(.redirectionData)
        redirectionUrl = c.sipsText(.redirectionUrl)
        redirectionVersion = c.sipsText(.redirectionVersion)
        publicKeyValue = c.sipsText(.publicKeyValue)
        errorFieldName = c.sipsText(.errorFieldName)
    }
}
