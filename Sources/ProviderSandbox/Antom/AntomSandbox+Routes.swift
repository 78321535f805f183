import Foundation
import Hummingbird

extension AntomSandbox: SandboxEmulator {
    /// The official SDKs take a host without a path, so `/ams/…` is answered at the root too.
    var alsoServedAtRoot: Bool { true }

    func merchant(for request: Request) async -> String? {
        guard let clientId = request.headers[Self.clientIdHeader], merchantsById[clientId] != nil else { return nil }
        return clientId
    }

    func unavailableResponse() -> Response {
        Self.unsigned(.trafficLimit)
    }

    func addRoutes(to group: RouterGroup<SandboxRequestContext>) {
        let calls: [(String, Handler)] = [
            ("payments/createPaymentSession", createPaymentSession),
            ("payments/pay", pay),
            ("payments/inquiryPayment", inquiryPayment),
            ("payments/cancel", cancel),
            ("payments/refund", refund),
            ("payments/inquiryRefund", inquiryRefund),
            ("payments/capture", capture),
            ("vaults/createVaultingSession", createVaultingSession),
            ("vaults/inquireVaulting", inquireVaulting),
            ("payments/acceptDispute", acceptDispute),
            ("payments/supplyDefenseDocument", supplyDefenseDocument),
        ]
        for base in ["ams/api/v1", "ams/sandbox/api/v1"] {
            for (path, handler) in calls {
                group.post(RouterPath("\(base)/\(path)")) { request, _ in
                    await serve(request, handler: handler)
                }
            }
        }
    }

    // MARK: Payments

    func createPaymentSession(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomCreateSessionRequest.self, call.body)
        let productCode = try AntomInput.required(body.productCode, "productCode")
        guard productCode == "AGREEMENT_PAYMENT" else {
            throw AntomRequestError.invalid("productCode", "must be AGREEMENT_PAYMENT")
        }
        if let scene = body.productScene, scene != "EASY_PAY" {
            throw AntomRequestError.invalid("productScene", "must be EASY_PAY")
        }
        let requestId = try AntomInput.required(body.paymentRequestId, "paymentRequestId")
        let (amount, currency) = try AntomInput.money(body.paymentAmount, "paymentAmount")
        let method = try AntomInput.required(body.paymentMethod?.paymentMethodType, "paymentMethod.paymentMethodType")
        guard method != "CARD" else {
            throw AntomRequestError.invalid("paymentMethod.paymentMethodType", "must be a wallet")
        }
        guard body.order != nil else { throw AntomRequestError.missing("order") }
        _ = try AntomInput.required(body.env?.terminalType, "env.terminalType")
        _ = try AntomInput.required(
            body.settlementStrategy?.settlementCurrency, "settlementStrategy.settlementCurrency")
        let notifyURL = try AntomInput.required(body.paymentNotifyUrl, "paymentNotifyUrl")
        let redirectURL = try AntomInput.required(body.paymentRedirectUrl, "paymentRedirectUrl")
        var authState: String?
        if let agreement = body.agreementInfo {
            authState = try AntomInput.required(agreement.authState, "agreementInfo.authState")
        }
        var expiry: Date?
        if let text = body.paymentSessionExpiryTime {
            guard let date = AntomTime.parse(text) else {
                throw AntomRequestError.invalid("paymentSessionExpiryTime", "must be ISO-8601 with an offset")
            }
            expiry = date
        }
        let input = AntomSessionInput(
            paymentRequestId: requestId, amount: amount, currency: currency, paymentMethodType: method,
            notifyURL: notifyURL, redirectURL: redirectURL, authState: authState,
            userLoginId: body.agreementInfo?.userLoginId, requestedExpiry: expiry)
        let reply = await state.createSession(
            clientId: call.clientId, input: input, canonical: call.canonical, baseURL: call.baseURL)
        if configuration.merchants.first(where: { $0.clientId == call.clientId })?.approvesSessionsAtOnce == true,
            let sessionId = await state.openSessionId(clientId: call.clientId, requestId: requestId)
        {
            _ = try? await completeSession(paymentSessionId: sessionId)
        }
        return reply
    }

    func pay(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomPayRequest.self, call.body)
        let productCode = try AntomInput.required(body.productCode, "productCode")
        let requestId = try AntomInput.required(body.paymentRequestId, "paymentRequestId")
        let (amount, currency) = try AntomInput.money(body.paymentAmount, "paymentAmount")
        let method = try AntomInput.required(body.paymentMethod?.paymentMethodType, "paymentMethod.paymentMethodType")
        let methodId = try AntomInput.required(body.paymentMethod?.paymentMethodId, "paymentMethod.paymentMethodId")
        guard body.order != nil else { throw AntomRequestError.missing("order") }
        _ = try AntomInput.required(
            body.settlementStrategy?.settlementCurrency, "settlementStrategy.settlementCurrency")
        _ = try AntomInput.required(body.paymentRedirectUrl, "paymentRedirectUrl")
        var captureMode: String?
        switch (productCode, method) {
        case ("CASHIER_PAYMENT", "CARD"):
            let mode = body.paymentFactor?.captureMode ?? "AUTOMATIC"
            guard mode == "AUTOMATIC" || mode == "MANUAL" else {
                throw AntomRequestError.invalid("paymentFactor.captureMode", "must be AUTOMATIC or MANUAL")
            }
            if try AntomInput.bool(body.paymentFactor?.isAuthorization, "paymentFactor.isAuthorization") == false {
                throw AntomRequestError.invalid("paymentFactor.isAuthorization", "must be true for card payments")
            }
            captureMode = mode
        case ("AGREEMENT_PAYMENT", let wallet) where wallet != "CARD":
            captureMode = nil
        default:
            throw AntomRequestError.invalid(
                "productCode", "must be AGREEMENT_PAYMENT for a wallet or CASHIER_PAYMENT for CARD")
        }
        let input = AntomPayInput(
            paymentRequestId: requestId, amount: amount, currency: currency, productCode: productCode,
            paymentMethodType: method, paymentMethodId: methodId, captureMode: captureMode,
            notifyURL: body.paymentNotifyUrl)
        return await state.pay(clientId: call.clientId, input: input, canonical: call.canonical)
    }

    func acceptDispute(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomDisputeInput.self, call.body)
        return await state.acceptDispute(
            clientId: call.clientId, disputeId: try AntomInput.required(body.disputeId, "disputeId"))
    }

    func supplyDefenseDocument(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomDisputeInput.self, call.body)
        return await state.supplyDefense(
            clientId: call.clientId, disputeId: try AntomInput.required(body.disputeId, "disputeId"),
            evidence: try AntomInput.required(body.disputeEvidence, "disputeEvidence"))
    }

    func inquiryPayment(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomPaymentLookup.self, call.body)
        guard body.paymentId != nil || body.paymentRequestId != nil else {
            throw AntomRequestError.missing("paymentId or paymentRequestId")
        }
        return await state.inquiry(
            clientId: call.clientId, paymentId: body.paymentId, paymentRequestId: body.paymentRequestId)
    }

    func cancel(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomPaymentLookup.self, call.body)
        guard body.paymentId != nil || body.paymentRequestId != nil else {
            throw AntomRequestError.missing("paymentId or paymentRequestId")
        }
        return await state.cancel(
            clientId: call.clientId, paymentId: body.paymentId, paymentRequestId: body.paymentRequestId)
    }

    func refund(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomRefundRequest.self, call.body)
        let requestId = try AntomInput.required(body.refundRequestId, "refundRequestId")
        let paymentId = try AntomInput.required(body.paymentId, "paymentId")
        let (amount, currency) = try AntomInput.money(body.refundAmount, "refundAmount")
        let input = AntomOperationInput(
            requestId: requestId, paymentId: paymentId, amount: amount, currency: currency,
            notifyURL: body.refundNotifyUrl)
        return await state.refund(clientId: call.clientId, input: input, canonical: call.canonical)
    }

    func inquiryRefund(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomRefundLookup.self, call.body)
        guard body.refundId != nil || body.refundRequestId != nil else {
            throw AntomRequestError.missing("refundId or refundRequestId")
        }
        return await state.inquiryRefund(
            clientId: call.clientId, refundId: body.refundId, refundRequestId: body.refundRequestId)
    }

    func capture(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomCaptureRequest.self, call.body)
        let requestId = try AntomInput.required(body.captureRequestId, "captureRequestId")
        let paymentId = try AntomInput.required(body.paymentId, "paymentId")
        let (amount, currency) = try AntomInput.money(body.captureAmount, "captureAmount")
        let isLast = try AntomInput.bool(body.isLastCapture, "isLastCapture") ?? false
        let input = AntomOperationInput(
            requestId: requestId, paymentId: paymentId, amount: amount, currency: currency, isLast: isLast)
        return await state.capture(clientId: call.clientId, input: input, canonical: call.canonical)
    }

    // MARK: Vaulting

    func createVaultingSession(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomVaultingSessionRequest.self, call.body)
        guard try AntomInput.required(body.paymentMethodType, "paymentMethodType") == "CARD" else {
            throw AntomRequestError.invalid("paymentMethodType", "must be CARD")
        }
        let requestId = try AntomInput.required(body.vaultingRequestId, "vaultingRequestId")
        let notifyURL = try AntomInput.required(body.vaultingNotificationUrl, "vaultingNotificationUrl")
        _ = try AntomInput.required(body.redirectUrl, "redirectUrl")
        _ = try AntomInput.bool(body.is3DSAuthentication, "is3DSAuthentication")
        return await state.createVaultingSession(
            clientId: call.clientId, vaultingRequestId: requestId, notifyURL: notifyURL, canonical: call.canonical,
            baseURL: call.baseURL)
    }

    func inquireVaulting(_ call: Call) async throws -> AntomReply {
        let body = try AntomInput.decode(AntomVaultingLookup.self, call.body)
        let requestId = try AntomInput.required(body.vaultingRequestId, "vaultingRequestId")
        return await state.inquireVaulting(clientId: call.clientId, vaultingRequestId: requestId, baseURL: call.baseURL)
    }
}
