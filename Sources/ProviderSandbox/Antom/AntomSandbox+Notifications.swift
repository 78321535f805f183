import Foundation

extension AntomSandbox {
    /// Antom's acknowledgement rule: HTTP 200 and a JSON body whose `result` has `resultStatus` `S` and
    /// `resultCode` `SUCCESS` (the documented reply is
    /// `{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}`).
    static let acknowledges: @Sendable (Int, [UInt8]) -> Bool = { status, body in
        guard status == 200,
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let result = object["result"] as? [String: Any]
        else { return false }
        return result["resultStatus"] as? String == "S" && result["resultCode"] as? String == "SUCCESS"
    }

    /// Builds, signs (or mis-signs under the `badSignature` fault) and queues the notifications of `events`.
    func notify(_ events: [AntomEvent]) async {
        for event in events {
            guard let (clientId, url, subject, body) = notification(for: event), let merchant = merchantsById[clientId]
            else { continue }
            await enqueue(body, url: url, subject: subject, merchant: merchant)
        }
    }

    private func notification(for event: AntomEvent) -> (String, String, String, [UInt8])? {
        switch event {
        case .payment(let payment):
            guard let url = payment.notifyURL else { return nil }
            let result =
                payment.status == .fail ? AntomResult("F", payment.resultCode, payment.resultMessage) : .success
            let body = AntomPaymentNotify(
                notifyType: "PAYMENT_RESULT", result: result, paymentRequestId: payment.paymentRequestId,
                paymentId: payment.paymentId, paymentAmount: AntomMoney(payment.amount, payment.currency),
                paymentMethodType: payment.paymentMethodType, paymentCreateTime: AntomTime.format(payment.createdAt),
                paymentTime: payment.paymentTime.map(AntomTime.format))
            return (payment.clientId, url, payment.paymentId, AntomJSON.encode(body))
        case .tokenCreated(let token), .tokenCanceled(let token):
            guard let url = token.notifyURL else { return nil }
            let created: Bool
            if case .tokenCreated = event { created = true } else { created = false }
            let body = AntomAuthorizationNotify(
                authorizationNotifyType: created ? "TOKEN_CREATED" : "TOKEN_CANCELED", authClientId: token.clientId,
                accessToken: token.accessToken, authState: token.authState, userLoginId: token.userLoginId,
                reason: created ? nil : "the user cancelled the authorization", result: .success)
            return (token.clientId, url, "authorization:" + token.authState, AntomJSON.encode(body))
        case .vaulting(let session, let card):
            let result =
                session.status == "SUCCESS" ? .success : AntomResult("F", session.resultCode, session.resultMessage)
            let body = AntomVaultingNotify(
                vaultingRequestId: session.vaultingRequestId, result: result,
                paymentMethodDetail: card.map { AntomPaymentMethodDetail(card: $0.detail) },
                vaultingCreateTime: AntomTime.format(session.createdAt))
            return (session.clientId, session.notifyURL, session.vaultingRequestId, AntomJSON.encode(body))
        case .capture(let payment, let capture):
            guard let url = payment.notifyURL else { return nil }
            let body = AntomCaptureNotify(
                captureRequestId: capture.requestId ?? "", captureId: capture.id, paymentId: payment.paymentId,
                captureAmount: AntomMoney(capture.amount, capture.currency),
                captureTime: AntomTime.format(capture.time),
                result: .success)
            return (payment.clientId, url, capture.id, AntomJSON.encode(body))
        case .dispute(let dispute, let type):
            guard let url = dispute.notifyURL else { return nil }
            let body = AntomDisputeNotify(
                paymentRequestId: dispute.paymentRequestId, disputeId: dispute.disputeId, paymentId: dispute.paymentId,
                disputeTime: AntomTime.format(state.clock()),
                disputeAmount: AntomMoney(dispute.amount, dispute.currency),
                disputeNotificationType: type, disputeReasonCode: dispute.reasonCode, disputeType: dispute.disputeType,
                defenseDueTime: AntomTime.format(dispute.defenseDueTime), disputeJudgedResult: dispute.judgedResult,
                disputeAcceptReason: type == "DISPUTE_ACCEPTED" ? dispute.acceptReason : nil,
                defendable: dispute.status == "OPEN")
            return (dispute.clientId, url, dispute.disputeId, AntomJSON.encode(body))
        case .refund(let payment, let refund, let url):
            guard let url else { return nil }
            let body = AntomRefundNotify(
                refundRequestId: refund.requestId ?? "", refundId: refund.id, paymentId: payment.paymentId,
                refundStatus: refund.status, refundAmount: AntomMoney(refund.amount, refund.currency),
                refundTime: AntomTime.format(refund.time), result: .success)
            return (payment.clientId, url, refund.id, AntomJSON.encode(body))
        }
    }

    private func enqueue(_ body: [UInt8], url: String, subject: String, merchant: AntomSandboxMerchant) async {
        let time = AntomTime.format(state.clock())
        let path = Self.signedPath(of: url)
        if await faults.takeDroppedNotification(merchant: merchant.clientId) { return }
        let corrupt = await faults.takeBadSignature(merchant: merchant.clientId)
        // A wrong signature is a valid signature over other content.
        let signedBody = corrupt ? body + Array(" ".utf8) : body
        let content = AntomSignature.content(
            method: "POST", path: path, clientId: merchant.clientId, time: time, body: signedBody)
        guard let key = try? await state.signingKey(), let signature = try? AntomSignature.sign(content, with: key)
        else {
            logger.error("antom.notification.unsigned", metadata: ["provider.account": .string(merchant.clientId)])
            return
        }
        await notifier.enqueue(
            SandboxNotification(
                provider: name, merchant: merchant.clientId, subject: subject, url: url,
                contentType: "application/json; charset=UTF-8", body: body,
                headers: [
                    ("client-id", merchant.clientId), ("request-time", time),
                    ("signature", AntomSignature.headerValue(keyVersion: merchant.keyVersion, signature: signature)),
                ],
                acknowledges: Self.acknowledges))
    }

    /// The path (and query) of a notify URL, as the receiver sees it.
    static func signedPath(of url: String) -> String {
        guard let components = URLComponents(string: url) else { return "/" }
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery, !query.isEmpty { path += "?" + query }
        return path
    }
}
