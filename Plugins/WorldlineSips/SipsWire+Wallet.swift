#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `wallet/getWalletData` body.
struct SipsWalletDataRequest: SipsSealedRequest, Equatable {
    var interfaceVersion: String
    var keyVersion: Int
    var merchantId: String
    var merchantWalletId: String
    var sealAlgorithm: String
    var seal: String?
}

/// One card of a wallet (`walletPaymentMeanDataList[]`).
struct SipsWalletPaymentMean: Decodable, Sendable, Equatable {
    var paymentMeanId: String?
    var paymentMeanAlias: String?
    var paymentMeanBrand: String?
    var maskedPan: String?
    var panExpiryDate: String?

    private enum CodingKeys: String, CodingKey {
        case paymentMeanId, paymentMeanAlias, paymentMeanBrand, maskedPan, panExpiryDate
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        paymentMeanId = c.sipsText(.paymentMeanId)
        paymentMeanAlias = c.sipsText(.paymentMeanAlias)
        paymentMeanBrand = c.sipsText(.paymentMeanBrand)
        maskedPan = c.sipsText(.maskedPan)
        panExpiryDate = c.sipsText(.panExpiryDate)
    }
}

/// `wallet/getWalletData` answer.
struct SipsWalletDataResponse: Decodable, Sendable, Equatable {
    var walletResponseCode: String?
    var walletCreationDateTime: String?
    var walletPaymentMeanDataList: [SipsWalletPaymentMean]?
    var errorFieldName: String?

    private enum CodingKeys: String, CodingKey {
        case walletResponseCode, walletCreationDateTime, walletPaymentMeanDataList, errorFieldName
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        walletResponseCode = c.sipsText(.walletResponseCode)
        walletCreationDateTime = c.sipsText(.walletCreationDateTime)
        walletPaymentMeanDataList = try? c.decodeIfPresent(
            [SipsWalletPaymentMean].self, forKey: .walletPaymentMeanDataList)
        errorFieldName = c.sipsText(.errorFieldName)
    }
}

/// `wallet/deletePaymentMean` body: removes one card from a wallet.
struct SipsDeletePaymentMeanRequest: SipsSealedRequest, Equatable {
    var interfaceVersion: String
    var keyVersion: Int
    var merchantId: String
    var merchantWalletId: String
    var paymentMeanId: String
    var sealAlgorithm: String
    var seal: String?
}

/// `wallet/deletePaymentMean` answer.
struct SipsDeletePaymentMeanResponse: Decodable, Sendable, Equatable {
    var walletResponseCode: String?
    var walletActionDateTime: String?
    var errorFieldName: String?

    private enum CodingKeys: String, CodingKey {
        case walletResponseCode, walletActionDateTime, errorFieldName
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        walletResponseCode = c.sipsText(.walletResponseCode)
        walletActionDateTime = c.sipsText(.walletActionDateTime)
        errorFieldName = c.sipsText(.errorFieldName)
    }
}
