import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

/// Worldline Direct's `payment.chargebacked` webhook: a chargeback of the payment, not a payment status.
@Suite struct WorldlineDirectChargebackTests {
    func event(type: String, id: String? = "3000001234_0") -> WorldlineWebhookEvent {
        WorldlineWebhookEvent(
            apiVersion: "v1", id: "evt", created: nil, merchantId: "m", type: type,
            payment: WorldlinePayment(
                id: id, status: "CHARGEBACKED", statusOutput: WorldlineStatusOutput(statusCode: 84),
                paymentOutput: WorldlinePaymentOutput(
                    amountOfMoney: WorldlineAmountOfMoney(amount: 4000, currencyCode: "eur"))),
            refund: nil)
    }

    @Test func aChargebackedWebhookOpensAChargebackOfThePayment() throws {
        let dispute = try #require(WorldlineDirectMapping.chargeback(event(type: "payment.chargebacked")))
        #expect(dispute.kind == .opened)
        #expect(dispute.stage == .chargeback)
        #expect(dispute.providerDisputeId == "3000001234_0")
        #expect(dispute.providerPaymentId == "3000001234_0")
        #expect(dispute.amount == 4000 && dispute.currency == "EUR")
        #expect(dispute.providerStatus == "CHARGEBACKED")
    }

    @Test func otherWebhooksAndOnesWithoutAPaymentIdAreNoChargeback() {
        #expect(WorldlineDirectMapping.chargeback(event(type: "payment.captured")) == nil)
        #expect(WorldlineDirectMapping.chargeback(event(type: "payment.chargebacked", id: nil)) == nil)
    }
}
