#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomMapping {
    /// The `paymentData` key a merchant may use to describe the order; the merchant reference otherwise.
    static let orderDescriptionKey = "order_description"

    /// `order` of a payment: our merchant reference, a description, the amount and the buyer when known.
    static func order(_ request: AuthorizeRequest) -> AntomOrder {
        let described = request.paymentData[orderDescriptionKey]?.stringValue.map { String($0.prefix(256)) }
        let buyer = request.customerId ?? request.credentialSetup?.customerId
        return AntomOrder(
            referenceOrderId: request.merchantReference,
            orderDescription: (described?.isEmpty == false ? described : nil) ?? request.merchantReference,
            orderAmount: AntomAmount(minor: request.amount, currency: request.currency),
            buyer: buyer.map { AntomBuyer(referenceBuyerId: $0) }
        )
    }

    /// The settlement currency: the option `settlement_currency`, else the payment currency.
    static func settlement(_ currency: String, options: [String: String]) -> AntomSettlementStrategy {
        AntomSettlementStrategy(
            settlementCurrency: options.nonBlank(Option.settlementCurrency)?.uppercased() ?? currency)
    }

    /// The `createPaymentSession` body of a first EasySafePay payment; `agreementInfo` only when the payment
    /// sets up a stored credential. The session expires `lifetime` seconds after `now`.
    static func paymentSessionRequest(
        _ request: AuthorizeRequest, account: AccountContext, now: Date, lifetime: Int64
    ) throws -> AntomCreatePaymentSessionRequest {
        AntomCreatePaymentSessionRequest(
            productCode: "AGREEMENT_PAYMENT",
            productScene: account.options.nonBlank(Option.productScene) ?? "EASY_PAY",
            paymentRequestId: request.attemptId,
            paymentAmount: AntomAmount(minor: request.amount, currency: request.currency),
            paymentMethod: AntomPaymentMethod(paymentMethodType: paymentMethodType(request.method)),
            order: order(request),
            env: AntomEnv(terminalType: "APP"),
            settlementStrategy: settlement(request.currency, options: account.options),
            paymentNotifyUrl: account.notificationURL,
            paymentRedirectUrl: try returnURL(request.returnURL, account: account),
            agreementInfo: request.credentialSetup.map { AntomAgreementInfo(authState: $0.correlationId) },
            paymentSessionExpiryTime: isoTime(now.addingTimeInterval(TimeInterval(lifetime))),
            merchantRegion: account.options.nonBlank(Option.merchantRegion)
        )
    }

    /// The `pay` body of a payment with a stored credential: an EasySafePay agreement (`AGREEMENT_PAYMENT`
    /// with the access token) or a vaulted card (`CASHIER_PAYMENT` with the card token, authorised, captured
    /// at once unless the capture mode is manual).
    ///
    /// - Throws: `bad_request` for a credential kind other than `wallet_agreement` or `card`.
    static func payRequest(
        _ request: AuthorizeRequest, credential: StoredCredential, account: AccountContext
    ) throws -> AntomPayRequest {
        let productCode: String
        let method: AntomPaymentMethod
        var factor: AntomPaymentFactor?
        switch credential.kind {
        case walletAgreementKind:
            productCode = "AGREEMENT_PAYMENT"
            let type = credential.paymentMethodType.flatMap { $0.isEmpty ? nil : $0 }
            method = AntomPaymentMethod(
                paymentMethodType: type ?? paymentMethodType(request.method), paymentMethodId: credential.token)
        case cardKind:
            productCode = "CASHIER_PAYMENT"
            method = AntomPaymentMethod(paymentMethodType: "CARD", paymentMethodId: credential.token)
            factor = AntomPaymentFactor(
                isAuthorization: true, captureMode: request.captureMode == .manual ? "MANUAL" : "AUTOMATIC")
        default:
            throw ProviderError(code: "bad_request", message: "stored credential kind is not supported by Antom")
        }
        return AntomPayRequest(
            productCode: productCode,
            paymentRequestId: request.attemptId,
            paymentAmount: AntomAmount(minor: request.amount, currency: request.currency),
            paymentMethod: method,
            paymentFactor: factor,
            order: order(request),
            env: AntomEnv(terminalType: "APP"),
            settlementStrategy: settlement(request.currency, options: account.options),
            paymentNotifyUrl: account.notificationURL,
            paymentRedirectUrl: try returnURL(request.returnURL, account: account),
            merchantRegion: account.options.nonBlank(Option.merchantRegion)
        )
    }

    /// The `capture` body.
    static func captureRequest(_ request: CaptureRequest, paymentId: String) -> AntomCaptureRequest {
        AntomCaptureRequest(
            captureRequestId: request.operationId, paymentId: paymentId,
            captureAmount: AntomAmount(minor: request.amount, currency: request.currency),
            isLastCapture: request.isFinal)
    }

    /// The `cancel` body: by Antom's payment id when known, else by our request id.
    static func cancelRequest(_ payment: PaymentLocator) -> AntomCancelRequest {
        if let id = payment.providerPaymentId, !id.isEmpty {
            return AntomCancelRequest(paymentId: id, paymentRequestId: nil)
        }
        return AntomCancelRequest(paymentId: nil, paymentRequestId: payment.attemptId)
    }

    /// The `refund` body.
    static func refundRequest(_ request: RefundRequest, paymentId: String) -> AntomRefundRequest {
        AntomRefundRequest(
            refundRequestId: request.refundId, paymentId: paymentId,
            refundAmount: AntomAmount(minor: request.amount, currency: request.currency),
            refundReason: request.reason.map { String($0.prefix(256)) })
    }

    /// The `inquiryPayment` body: always our request id, plus Antom's payment id when known.
    static func inquiryRequest(_ payment: PaymentLocator) -> AntomInquiryPaymentRequest {
        let id = payment.providerPaymentId.flatMap { $0.isEmpty ? nil : $0 }
        return AntomInquiryPaymentRequest(paymentRequestId: payment.attemptId, paymentId: id)
    }

    /// The `createVaultingSession` body; the region is the request's country, else the account option.
    static func vaultingSessionRequest(_ request: VaultingSessionRequest, account: AccountContext) throws
        -> AntomCreateVaultingSessionRequest
    {
        let region = request.country.flatMap { $0.isEmpty ? nil : $0.uppercased() }
        return AntomCreateVaultingSessionRequest(
            paymentMethodType: "CARD",
            vaultingRequestId: request.vaultingId,
            vaultingNotificationUrl: account.notificationURL,
            redirectUrl: try returnURL(request.returnURL, account: account),
            merchantRegion: region ?? account.options.nonBlank(Option.merchantRegion)
        )
    }

    /// Where Antom sends the shopper back: the request's `return_url`, else the account option `return_url`.
    /// The notification URL is never used (it is not meant for shoppers).
    ///
    /// - Throws: `return_url_required` (nothing sent) when neither is set; Antom requires one.
    static func returnURL(_ requested: String?, account: AccountContext) throws -> String {
        if let requested = requested?.trimmingBlanks(), !requested.isEmpty { return requested }
        if let configured = account.options.nonBlank(Option.returnURL) { return configured }
        throw ProviderError(
            code: "return_url_required",
            message: "Antom needs a return_url: set it on the request or as the account option return_url")
    }
}
