import Foundation
import Hummingbird
import SwitchyardCrypto

extension WorldlineDirectSandbox: SandboxEmulator {
    /// The official server SDKs take an endpoint without a path, so `/v2/…` is answered at the root too.
    var alsoServedAtRoot: Bool { true }

    func merchant(for request: Request) async -> String? {
        guard let (keyId, _) = WorldlineDirectAuthenticator.parseAuthorization(request.headers[.authorization])
        else { return nil }
        return merchantsByKeyId[keyId]?.merchantId
    }

    func unavailableResponse() -> Response {
        WorldlineDirectAnswer(.unavailable).response
    }

    func addRoutes(to group: RouterGroup<SandboxRequestContext>) {
        let base = "v2/:merchantId"
        group.post("\(base)/sessions") { request, context in
            await serve(request, context: context, idempotent: true) { merchant, body in
                _ = try decode(WDSessionRequest.self, body)
                let (sessionId, customerId) = await state.createSession(merchantId: merchant.merchantId)
                let root = baseURL(of: request) + "/" + name
                return WorldlineDirectAnswer(
                    status: 201,
                    WDSessionResponse(
                        clientSessionId: sessionId, customerId: customerId, clientApiUrl: root + "/client",
                        assetUrl: root + "/assets", invalidTokens: []))
            }
        }
        group.post("\(base)/payments") { request, context in
            await serve(request, context: context, idempotent: true) { merchant, body in
                try await createPayment(merchant: merchant, body: body, redirectBase: baseURL(of: request))
            }
        }
        group.get("\(base)/payments/:paymentId") { request, context in
            await serve(request, context: context, idempotent: false) { merchant, _ in
                let payment = try await state.payment(merchantId: merchant.merchantId, id: paymentId(context))
                return WorldlineDirectAnswer(WorldlineDirectResponses.payment(payment))
            }
        }
        group.get("\(base)/payments/:paymentId/details") { request, context in
            await serve(request, context: context, idempotent: false) { merchant, _ in
                let payment = try await state.payment(merchantId: merchant.merchantId, id: paymentId(context))
                return WorldlineDirectAnswer(WorldlineDirectResponses.payment(payment, details: true))
            }
        }
        group.post("\(base)/payments/:paymentId/capture") { request, context in
            await serve(request, context: context, idempotent: true) { merchant, body in
                let input = try decode(WDCaptureRequest.self, body)
                let (payment, operation, event) = try await state.capture(
                    merchantId: merchant.merchantId, id: paymentId(context), amount: input.amount,
                    isFinal: input.isFinal ?? false, reference: input.operationReferences?.merchantReference)
                await send(event)
                return WorldlineDirectAnswer(status: 201, WorldlineDirectResponses.capture(payment, operation))
            }
        }
        group.post("\(base)/payments/:paymentId/cancel") { request, context in
            await serve(request, context: context, idempotent: true) { merchant, body in
                _ = try decode(WDCancelRequest.self, body)
                let (payment, event) = try await state.cancel(merchantId: merchant.merchantId, id: paymentId(context))
                await send(event)
                return WorldlineDirectAnswer(WDCancelResponse(payment: WorldlineDirectResponses.payment(payment)))
            }
        }
        group.post("\(base)/payments/:paymentId/refund") { request, context in
            await serve(request, context: context, idempotent: true) { merchant, body in
                let input = try decode(WDRefundRequest.self, body)
                let (payment, operation, event) = try await state.refund(
                    merchantId: merchant.merchantId, id: paymentId(context), amount: input.amountOfMoney?.amount,
                    reference: input.operationReferences?.merchantReference)
                await send(event)
                return WorldlineDirectAnswer(status: 201, WorldlineDirectResponses.refund(payment, operation))
            }
        }
        addClientRoutes(to: group)
    }

    private func paymentId(_ context: SandboxRequestContext) -> String {
        context.parameters.get("paymentId") ?? ""
    }

    // MARK: Create payment

    private func createPayment(
        merchant: WorldlineDirectSandboxMerchant, body: [UInt8], redirectBase: String
    ) async throws -> WorldlineDirectAnswer {
        let request = try decode(WDCreatePaymentRequest.self, body)
        guard let money = request.order?.amountOfMoney, let amount = money.amount, amount > 0 else {
            throw WorldlineDirectSandboxError.invalid("order.amountOfMoney.amount", "amount must be a positive integer")
        }
        guard let currency = money.currencyCode?.uppercased(), currency.count == 3 else {
            throw WorldlineDirectSandboxError.invalid("order.amountOfMoney.currencyCode", "currency code required")
        }
        let cardInput = request.cardPaymentMethodSpecificInput
        let mode = cardInput?.authorizationMode ?? "FINAL_AUTHORIZATION"
        guard ["SALE", "FINAL_AUTHORIZATION", "PRE_AUTHORIZATION"].contains(mode) else {
            throw WorldlineDirectSandboxError.invalid(
                "cardPaymentMethodSpecificInput.authorizationMode", "unknown authorization mode")
        }
        let card: WorldlineDirectCardInput
        let encrypted: Bool
        if let jwe = request.encryptedCustomerInput {
            card = try await decryptCustomerInput(jwe, merchantId: merchant.merchantId)
            encrypted = true
        } else if let clear = cardInput?.card {
            card = WorldlineDirectCardInput(
                cardNumber: clear.cardNumber ?? "", expiryDate: clear.expiryDate ?? "", cvv: clear.cvv,
                cardholderName: clear.cardholderName)
            encrypted = false
        } else {
            throw WorldlineDirectSandboxError.invalid(
                "cardPaymentMethodSpecificInput.card", "card or encryptedCustomerInput required")
        }
        try Self.validate(card)
        let reference = request.order?.references?.merchantReference
        let input = WorldlineDirectPaymentInput(
            amount: amount, currency: currency, authorizationMode: mode,
            merchantReference: reference, card: card, encrypted: encrypted,
            returnURL: cardInput?.threeDSecure?.redirectionData?.returnUrl ?? cardInput?.returnUrl,
            webhookURL: request.feedbacks?.first,
            declined: await faults.takeDecline(merchant: merchant.merchantId, reference: reference))
        let (payment, event) = await state.createPayment(merchantId: merchant.merchantId, input: input)
        logger.info(
            "worldline.payment.created",
            metadata: [
                "provider.account": .string(merchant.merchantId), "payment.id": .string(payment.id),
                "worldline.status": .string(payment.status.rawValue),
            ])
        await send(event)
        let result = WorldlineDirectResponses.createPayment(payment, redirectBase: redirectBase)
        if payment.status == .rejected {
            return WorldlineDirectAnswer(.declined, paymentResult: result)
        }
        return WorldlineDirectAnswer(status: 201, result)
    }

    /// Decrypts the SDK's JWE, checks its session (unexpired, unused, same merchant) and reads the card.
    private func decryptCustomerInput(_ jwe: String, merchantId: String) async throws -> WorldlineDirectCardInput {
        let key = try await state.rsaKey()
        guard let (header, plaintext) = try? JWE.decrypt(jwe, privateKey: key.privateKey),
            header.alg == "RSA-OAEP", header.kid == nil || header.kid == key.id,
            let payload = try? JSONDecoder().decode(WDEncryptedPayload.self, from: Data(plaintext))
        else { throw WorldlineDirectSandboxError.undecryptable }
        guard let sessionId = payload.clientSessionId else { throw WorldlineDirectSandboxError.sessionUnknown }
        try await state.consumeSession(id: sessionId, merchantId: merchantId)
        let values = Dictionary(
            (payload.paymentValues ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        return WorldlineDirectCardInput(
            cardNumber: values["cardNumber"] ?? "", expiryDate: values["expiryDate"] ?? "", cvv: values["cvv"],
            cardholderName: values["cardholderName"])
    }

    private static func validate(_ card: WorldlineDirectCardInput) throws(WorldlineDirectSandboxError) {
        let pan = card.cardNumber
        guard SandboxCard.isValidNumber(pan) else {
            throw .invalid("cardPaymentMethodSpecificInput.card.cardNumber", "card number is invalid")
        }
        let expiry = card.expiryDate
        guard expiry.count == 4, expiry.allSatisfy(\.isNumber), let month = Int(expiry.prefix(2)),
            (1...12).contains(month)
        else { throw .invalid("cardPaymentMethodSpecificInput.card.expiryDate", "expiry date must be MMYY") }
    }
}
