import Foundation
import SwitchyardCrypto

/// A validated `createPaymentSession` request.
struct AntomSessionInput: Sendable {
    var paymentRequestId: String
    var amount: Int64
    var currency: String
    var paymentMethodType: String
    var notifyURL: String
    var redirectURL: String
    var authState: String?
    var userLoginId: String?
    var requestedExpiry: Date?
}

extension AntomState {
    /// `createPaymentSession`: a session for the app, and its payment waiting (PROCESSING) for the user.
    func createSession(clientId: String, input: AntomSessionInput, canonical: String, baseURL: String) -> AntomReply {
        let created = now
        let latest = created.addingTimeInterval(configuration.maxPaymentSessionLifetime)
        let expiry = input.requestedExpiry ?? latest
        guard expiry > created, expiry <= latest else {
            return AntomReply(
                result: .paramIllegal("paymentSessionExpiryTime must be later than now and at most 1 hour after it"))
        }
        return idempotent(
            scope: "payment", clientId: clientId, requestId: input.paymentRequestId, endpoint: "createPaymentSession",
            canonical: canonical
        ) {
            let sessionId = randomHex(16)
            let payment = AntomPayment(
                paymentId: makeID("1940"), paymentRequestId: input.paymentRequestId, clientId: clientId,
                productCode: "AGREEMENT_PAYMENT", paymentMethodType: input.paymentMethodType, amount: input.amount,
                currency: input.currency, status: .processing, resultCode: AntomResult.inProcess.resultCode,
                resultMessage: "waiting for the user", captureMode: nil, capturedAmount: 0, refundedAmount: 0,
                createdAt: created, paymentTime: nil, cancelTime: nil, notifyURL: input.notifyURL,
                paymentSessionId: sessionId, transactions: [])
            payments[payment.paymentId] = payment
            paymentIdsByRequest[Self.key(clientId, input.paymentRequestId)] = payment.paymentId
            sessions[sessionId] = PaymentSession(
                id: sessionId, clientId: clientId, paymentId: payment.paymentId, authState: input.authState,
                userLoginId: input.userLoginId, redirectURL: input.redirectURL, expiresAt: expiry)
            let opaque = AntomJSON.encode([
                "paymentSessionId": sessionId, "paymentMethodType": input.paymentMethodType, "nonce": randomHex(8),
            ])
            return AntomReply(
                AntomSessionResponse(
                    result: .success, paymentSessionData: Base64.encode(opaque),
                    paymentSessionId: sessionId, paymentSessionExpiryTime: AntomTime.format(expiry),
                    normalUrl: baseURL + "/_sandbox/antom/sessions/" + sessionId))
        }
    }

    /// The session of the payment with this request id, while it still waits for the user.
    func openSessionId(clientId: String, requestId: String) -> String? {
        guard let paymentId = paymentIdsByRequest[Self.key(clientId, requestId)], let payment = payments[paymentId],
            payment.status == .processing
        else { return nil }
        return payment.paymentSessionId
    }

    /// Plays the app and the wallet: the user approves (token created when asked for, then the payment is
    /// decided by its amount) or rejects (`F USER_PAYMENT_VERIFICATION_FAILED`).
    func completeSession(id: String, approve: Bool) throws(AntomSandboxError) -> (
        AntomSessionCompletion, [AntomEvent]
    ) {
        closeExpiredSessions()
        guard var session = sessions[id] else { throw .sessionNotFound }
        guard !session.completed else { throw .sessionCompleted }
        guard !session.closed else { throw session.expiresAt <= now ? .sessionExpired : .sessionClosed }
        guard var payment = payments[session.paymentId], payment.status == .processing else { throw .sessionClosed }
        session.completed = true
        sessions[id] = session
        var events: [AntomEvent] = []
        var created: AntomAccessToken?
        if approve {
            if let authState = session.authState {
                let token = AntomAccessToken(
                    accessToken: "AT" + AntomTime.dayStamp(now) + randomHex(20), clientId: session.clientId,
                    paymentMethodType: payment.paymentMethodType, authState: authState,
                    userLoginId: session.userLoginId, status: .active,
                    notifyURL: authorizationURL(clientId: session.clientId) ?? payment.notifyURL, createdAt: now)
                tokens[token.accessToken] = token
                events.append(.tokenCreated(token))
                created = token
            }
            decide(&payment, approved: true)
        } else {
            fail(&payment, .verificationFailed)
        }
        payments[payment.paymentId] = payment
        if payment.status != .processing { events.append(.payment(payment)) }
        let completion = AntomSessionCompletion(
            paymentId: payment.paymentId, paymentRequestId: payment.paymentRequestId, status: payment.status,
            resultCode: payment.resultCode, accessToken: created?.accessToken, authState: created?.authState)
        return (completion, events)
    }

    /// The session as the admin surface shows it.
    func session(id: String) -> PaymentSession? {
        closeExpiredSessions()
        return sessions[id]
    }

    /// Revokes an access token.
    func cancelToken(_ accessToken: String) throws(AntomSandboxError) -> AntomAccessToken {
        guard var token = tokens[accessToken] else { throw .tokenNotFound }
        guard token.status == .active else { throw .tokenCanceled }
        token.status = .canceled
        tokens[accessToken] = token
        return token
    }

    private func authorizationURL(clientId: String) -> String? {
        configuration.merchants.first { $0.clientId == clientId }?.authorizationNotifyURL
    }
}
