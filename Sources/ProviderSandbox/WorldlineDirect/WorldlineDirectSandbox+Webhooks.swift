import Foundation
import SwitchyardCrypto

extension WorldlineDirectSandbox {
    /// Builds, signs (or mis-signs under the `badSignature` fault) and queues the webhook of `event`.
    func send(_ event: WorldlineDirectEvent) async {
        let payment: WorldlineDirectPayment
        switch event {
        case .payment(let value), .refund(let value, _), .chargeback(let value): payment = value
        }
        guard let merchant = merchant(id: payment.merchantId),
            let url = payment.webhookURL ?? merchant.webhookURL
        else { return }
        let eventId = UUID().uuidString.lowercased()
        let created = WorldlineDirectResponses.timestamp(await state.now)
        let body: Data?
        let subject: String
        switch event {
        case .payment(let payment):
            subject = payment.id
            body = try? WorldlineDirectResponses.encoder.encode(
                WDWebhookEvent<WDPaymentResponse>(
                    id: eventId, created: created, merchantId: payment.merchantId, type: payment.status.eventType,
                    payment: WorldlineDirectResponses.payment(payment)))
        case .chargeback(let payment):
            subject = payment.id
            var response = WorldlineDirectResponses.payment(payment)
            response.status = configuration.chargebackStatus
            response.statusOutput.statusCode = configuration.chargebackStatusCode
            body = try? WorldlineDirectResponses.encoder.encode(
                WDWebhookEvent<WDPaymentResponse>(
                    id: eventId, created: created, merchantId: payment.merchantId, type: "payment.chargebacked",
                    payment: response))
        case .refund(let payment, let operation):
            subject = operation.id
            body = try? WorldlineDirectResponses.encoder.encode(
                WDWebhookEvent<WDRefundResponse>(
                    id: eventId, created: created, merchantId: payment.merchantId, type: "refund.refunded",
                    refund: WorldlineDirectResponses.refund(payment, operation)))
        }
        guard let body else { return }
        if await faults.takeDroppedNotification(merchant: merchant.merchantId) { return }
        let corrupt = await faults.takeBadSignature(merchant: merchant.merchantId)
        let secret = corrupt ? merchant.webhookSecret + "-wrong" : merchant.webhookSecret
        let signature = Base64.encode(HMAC.sha256(key: secret, message: Array(body)))
        logger.debug(
            "worldline.webhook.queued",
            metadata: ["provider.account": .string(merchant.merchantId), "payment.id": .string(payment.id)])
        await notifier.enqueue(
            SandboxNotification(
                provider: name,
                merchant: merchant.merchantId,
                subject: subject,
                url: url,
                contentType: "application/json",
                body: Array(body),
                headers: [("X-GCS-Signature", signature), ("X-GCS-KeyId", merchant.webhookKeyId)]
            )
        )
    }
}
