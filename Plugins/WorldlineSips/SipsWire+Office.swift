#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `diagnostic/getTransactionData` body.
struct SipsTransactionDataRequest: SipsSealedRequest, Equatable {
    var interfaceVersion: String
    var keyVersion: Int
    var merchantId: String
    var sealAlgorithm: String
    var seal: String?
    var transactionReference: String
}

/// `diagnostic/getTransactionData` answer: the transaction's state and amounts.
struct SipsTransactionDataResponse: Decodable, Sendable, Equatable {
    var responseCode: String?
    var transactionStatus: String?
    var acquirerResponseCode: String?
    var authorisationId: String?
    var originAmount: Int64?
    var currentAmount: Int64?
    var currencyCode: String?
    var captureMode: String?
    var captureLimitDate: String?
    var transactionDateTime: String?
    var lastOperationName: String?
    var paymentMeanBrand: String?
    var paymentMeanType: String?
    var maskedPan: String?
    var panExpiryDate: String?
    var orderChannel: String?
    var holderAuthentStatus: String?
    var returnContext: String?
    var errorFieldName: String?

    init(
        responseCode: String?, transactionStatus: String? = nil, acquirerResponseCode: String? = nil,
        originAmount: Int64? = nil, currentAmount: Int64? = nil, currencyCode: String? = nil
    ) {
        self.responseCode = responseCode
        self.transactionStatus = transactionStatus
        self.acquirerResponseCode = acquirerResponseCode
        self.originAmount = originAmount
        self.currentAmount = currentAmount
        self.currencyCode = currencyCode
    }

    private enum CodingKeys: String, CodingKey {
        case responseCode, transactionStatus, acquirerResponseCode, authorisationId, originAmount, currentAmount
        case currencyCode, captureMode, captureLimitDate, transactionDateTime, lastOperationName, paymentMeanBrand
        case paymentMeanType, maskedPan, panExpiryDate, orderChannel, holderAuthentStatus, returnContext
        case errorFieldName
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        responseCode = c.sipsText(.responseCode)
        transactionStatus = c.sipsText(.transactionStatus)
        acquirerResponseCode = c.sipsText(.acquirerResponseCode)
        authorisationId = c.sipsText(.authorisationId)
        originAmount = c.sipsAmount(.originAmount)
        currentAmount = c.sipsAmount(.currentAmount)
        currencyCode = c.sipsText(.currencyCode)
        captureMode = c.sipsText(.captureMode)
        captureLimitDate = c.sipsText(.captureLimitDate)
        transactionDateTime = c.sipsText(.transactionDateTime)
        lastOperationName = c.sipsText(.lastOperationName)
        paymentMeanBrand = c.sipsText(.paymentMeanBrand)
        paymentMeanType = c.sipsText(.paymentMeanType)
        maskedPan = c.sipsText(.maskedPan)
        panExpiryDate = c.sipsText(.panExpiryDate)
        orderChannel = c.sipsText(.orderChannel)
        holderAuthentStatus = c.sipsText(.holderAuthentStatus)
        returnContext = c.sipsText(.returnContext)
        errorFieldName = c.sipsText(.errorFieldName)
    }
}

/// `cashManagement/validate`, `cancel` and `refund` body: an operation on one transaction.
struct SipsCashManagementRequest: SipsSealedRequest, Equatable {
    var currencyCode: String
    var interfaceVersion: String
    var keyVersion: Int
    var merchantId: String
    var operationAmount: Int64
    var operationOrigin: String
    var sealAlgorithm: String
    var seal: String?
    var transactionReference: String
}

/// The answer to a cash management operation.
struct SipsCashManagementResponse: Decodable, Sendable, Equatable {
    var responseCode: String?
    var acquirerResponseCode: String?
    var authorisationId: String?
    var newAmount: Int64?
    var newStatus: String?
    var operationDateTime: String?
    var captureLimitDate: String?
    var errorFieldName: String?

    private enum CodingKeys: String, CodingKey {
        case responseCode, acquirerResponseCode, authorisationId, newAmount, newStatus, operationDateTime
        case captureLimitDate, errorFieldName
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        responseCode = c.sipsText(.responseCode)
        acquirerResponseCode = c.sipsText(.acquirerResponseCode)
        authorisationId = c.sipsText(.authorisationId)
        newAmount = c.sipsAmount(.newAmount)
        newStatus = c.sipsText(.newStatus)
        operationDateTime = c.sipsText(.operationDateTime)
        captureLimitDate = c.sipsText(.captureLimitDate)
        errorFieldName = c.sipsText(.errorFieldName)
    }
}
