#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension WorldlineDirectProvider {
    /// Verifies a webhook's `X-GCS-Signature` (and `X-GCS-KeyId` when `webhook_key_id` is configured)
    /// with the account's `webhook_secret`, and reports its payment or refund.
    ///
    /// Rejected (HTTP 401, no events): a missing or repeated signature or key-id header, a key id other than
    /// the configured one, a signature mismatch. Rejected with HTTP 400: a verified body that is not a `v1`
    /// event. A verified event gets HTTP 200 and an event for `payment.*` and `refund.*` types; the payment's
    /// merchant reference is the order's, not our attempt id, so events name the payment by Worldline's id.
    public func notification(
        _ request: NotificationRequest, account: AccountContext
    ) async throws -> NotificationResult {
        let secret = try account.credentials.require(Credential.webhookSecret)
        let signatures = request.headerValues("X-GCS-Signature")
        let keyIds = request.headerValues("X-GCS-KeyId")
        guard signatures.count == 1, let signature = signatures.first else {
            return rejected(signatures.isEmpty ? "missing signature" : "repeated signature header", account: account)
        }
        guard keyIds.count == 1, let keyId = keyIds.first else {
            return rejected(keyIds.isEmpty ? "missing key id" : "repeated key id header", account: account)
        }
        if let expected = account.credentials.nonBlank(Credential.webhookKeyId),
            keyId.trimmingBlanks() != expected
        {
            return rejected("unknown key id", account: account)
        }
        guard WorldlineDirectSigning.verifyWebhook(body: request.body, signature: signature, secret: secret.reveal())
        else {
            return rejected("signature mismatch", account: account)
        }
        guard let event = ProviderJSON.standard.decode(WorldlineWebhookEvent.self, from: request.body),
            event.apiVersion == "v1"
        else {
            return rejected("not a v1 event", account: account, status: 400)
        }
        host.log(.info, "worldline webhook verified", account: account, ["worldline.event.type": event.type ?? ""])
        if let chargeback = WorldlineDirectMapping.chargeback(event) {
            return NotificationResult(
                verified: true, reply: .body("", status: 200), events: [], disputes: [chargeback])
        }
        return NotificationResult(verified: true, reply: .body("", status: 200), events: Self.events(of: event))
    }

    /// The events a verified webhook carries.
    static func events(of event: WorldlineWebhookEvent) -> [NotificationEvent] {
        let type = event.type ?? ""
        if type.hasPrefix("payment."), let payment = event.payment {
            let outcome = WorldlineDirectMapping.paymentOutcome(payment)
            return [
                NotificationEvent(subject: .payment, reference: nil, providerPaymentId: payment.id, outcome: outcome)
            ]
        }
        if type.hasPrefix("refund."), let refund = event.refund {
            let outcome = WorldlineDirectMapping.refundOutcome(refund)
            return [NotificationEvent(subject: .refund, reference: nil, providerPaymentId: refund.id, outcome: outcome)]
        }
        return []
    }

    /// The answer to a webhook that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext, status: Int = 401) -> NotificationResult {
        host.rejectNotification(
            reason, reply: .body("unverified", status: status), account: account,
            message: "worldline webhook rejected", reasonKey: "worldline.webhook.reason")
    }
}
