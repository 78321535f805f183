#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// A stored Sips wallet card: the wallet it lives in and its id there.
struct SipsWalletCard: Sendable, Equatable {
    var merchantWalletId: String
    var paymentMeanId: String
}

extension SipsMapping {
    /// The stored-credential token of a wallet card: `<merchantWalletId>:<paymentMeanId>`.
    static func walletToken(merchantWalletId: String, paymentMeanId: String) -> String {
        merchantWalletId + ":" + paymentMeanId
    }

    /// Reads a stored credential of kind `card` (`<merchantWalletId>:<paymentMeanId>`).
    ///
    /// - Throws: `bad_request` (nothing sent) for another kind or a malformed token; the message never
    ///   repeats the token.
    static func walletCard(_ credential: StoredCredential) throws -> SipsWalletCard {
        guard credential.kind == cardKind else {
            throw ProviderError(
                code: "bad_request", message: "stored credential kind is not supported by Worldline Sips")
        }
        let parts = credential.token.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ProviderError(code: "bad_request", message: "stored card token is not a Sips wallet card")
        }
        let wallet = String(parts[0])
        let mean = String(parts[1])
        guard !wallet.isEmpty, wallet.unicodeScalars.allSatisfy(ProviderText.isAlphanumeric), !mean.isEmpty,
            mean.unicodeScalars.allSatisfy(ProviderText.isAlphanumeric)
        else {
            throw ProviderError(code: "bad_request", message: "stored card token is not a Sips wallet card")
        }
        return SipsWalletCard(merchantWalletId: wallet, paymentMeanId: mean)
    }

    /// The InAppSdk operation an order is initialised for.
    static func sdkOperationName(walletOrder: Bool, threeDSecure: Bool) -> String {
        switch (walletOrder, threeDSecure) {
        case (false, false): return "CARDORDER"
        case (false, true): return "THREEDSECUREANDORDER"
        case (true, false): return "WALLETORDER"
        case (true, true): return "THREEDSECUREANDWALLETORDER"
        }
    }

    /// Whether the merchant asked for a 3-D Secure order (`paymentData["three_d_secure"] == true`).
    static func wantsThreeDSecure(_ paymentData: [String: JSONValue]) -> Bool {
        paymentData[threeDSecureKey] == .bool(true)
    }

    /// The `orderInitialize` body of an authorisation. Our attempt id travels as `returnContext` (echoed in the
    /// automatic response) and, without non-alphanumerics, as the `transactionReference`.
    static func orderInitializeRequest(
        _ request: AuthorizeRequest, reference: String, walletCard: SipsWalletCard?, keys: SipsAccountKeys,
        account: AccountContext
    ) throws -> SipsOrderInitializeRequest {
        let customer = request.customerId.map(alphanumeric).flatMap { $0.isEmpty ? nil : $0 }
        return SipsOrderInitializeRequest(
            amount: request.amount,
            automaticResponseUrl: account.notificationURL,
            captureDay: 0,
            captureMode: request.captureMode == .manual ? "VALIDATION" : "AUTHOR_CAPTURE",
            currencyCode: try currencyCode(request.currency),
            customerId: customer,
            interfaceVersion: interfaceVersion(.inApp, options: account.options),
            keyVersion: keys.keyVersion,
            merchantId: keys.merchantId,
            merchantWalletId: walletCard?.merchantWalletId,
            orderChannel: orderChannel,
            orderId: orderId(request.merchantReference),
            returnContext: request.attemptId,
            sdkOperationName: sdkOperationName(
                walletOrder: walletCard != nil, threeDSecure: wantsThreeDSecure(request.paymentData)),
            sealAlgorithm: SipsSeal.algorithm,
            seal: nil,
            transactionReference: reference
        )
    }

    /// The `walletInitialize` body of a vaulting: the app adds one card to the vaulting's own wallet.
    static func walletInitializeRequest(merchantWalletId: String, keys: SipsAccountKeys, account: AccountContext)
        -> SipsWalletInitializeRequest
    {
        SipsWalletInitializeRequest(
            interfaceVersion: interfaceVersion(.inApp, options: account.options), keyVersion: keys.keyVersion,
            merchantId: keys.merchantId, merchantWalletId: merchantWalletId, sdkOperationName: "ADDCARD",
            sealAlgorithm: SipsSeal.algorithm, seal: nil)
    }

    /// The `getTransactionData` body.
    static func transactionDataRequest(reference: String, keys: SipsAccountKeys, account: AccountContext)
        -> SipsTransactionDataRequest
    {
        SipsTransactionDataRequest(
            interfaceVersion: interfaceVersion(.diagnostic, options: account.options), keyVersion: keys.keyVersion,
            merchantId: keys.merchantId, sealAlgorithm: SipsSeal.algorithm, seal: nil,
            transactionReference: reference)
    }

    /// A cash management body (`validate`, `cancel`, `refund`) for `amount` in the numeric currency.
    static func cashManagementRequest(
        reference: String, amount: Int64, currencyCode: String, keys: SipsAccountKeys, account: AccountContext
    ) -> SipsCashManagementRequest {
        SipsCashManagementRequest(
            currencyCode: currencyCode, interfaceVersion: interfaceVersion(.cashManagement, options: account.options),
            keyVersion: keys.keyVersion, merchantId: keys.merchantId, operationAmount: amount,
            operationOrigin: operationOrigin, sealAlgorithm: SipsSeal.algorithm, seal: nil,
            transactionReference: reference)
    }

    /// The `getWalletData` body.
    static func walletDataRequest(merchantWalletId: String, keys: SipsAccountKeys, account: AccountContext)
        -> SipsWalletDataRequest
    {
        SipsWalletDataRequest(
            interfaceVersion: interfaceVersion(.wallet, options: account.options), keyVersion: keys.keyVersion,
            merchantId: keys.merchantId, merchantWalletId: merchantWalletId, sealAlgorithm: SipsSeal.algorithm,
            seal: nil)
    }

    /// The `deletePaymentMean` body for one wallet card.
    static func deletePaymentMeanRequest(_ card: SipsWalletCard, keys: SipsAccountKeys, account: AccountContext)
        -> SipsDeletePaymentMeanRequest
    {
        SipsDeletePaymentMeanRequest(
            interfaceVersion: interfaceVersion(.wallet, options: account.options), keyVersion: keys.keyVersion,
            merchantId: keys.merchantId, merchantWalletId: card.merchantWalletId, paymentMeanId: card.paymentMeanId,
            sealAlgorithm: SipsSeal.algorithm, seal: nil)
    }
}
