import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct ReportRejectionTests {
    func machine(_ status: PaymentStatus, amount: Int64 = 1000) -> PaymentMachine {
        PaymentMachine(
            payment: Payment(
                id: "pay_1", tenantId: UUID(), amount: amount, currency: "USD", country: "US", method: "alipay",
                reference: "order-1", captureMode: .manual, customerId: nil, returnURL: nil, paymentData: [:],
                status: status, createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test func anAmountOutsideThePaymentIsRejected() {
        let above = machine(.authorized).rejection(of: Outcome(kind: .succeeded, capturedAmount: 1001))
        #expect(above?.code == ReportRejection.amountOutOfRange)
        #expect(above?.message.contains("1001") == true)
        #expect(
            machine(.requiresAction).rejection(of: Outcome(kind: .succeeded, amount: 5000))?.code
                == "amount_out_of_range")
        #expect(machine(.succeeded).rejection(of: Outcome(kind: .succeeded, refundedAmount: -1)) != nil)
        #expect(machine(.authorized).rejection(of: Outcome(kind: .succeeded, capturedAmount: 1000)) == nil)
        #expect(machine(.authorized).rejection(of: Outcome(kind: .succeeded, capturedAmount: 0)) == nil)
    }

    @Test func aReportContradictingAFinalStateAboutMoneyIsRejected() {
        let contradictions: [(PaymentStatus, Outcome.Kind)] = [
            (.failed, .succeeded), (.failed, .authorized), (.canceled, .succeeded), (.succeeded, .declined),
            (.succeeded, .canceled),
        ]
        for (status, kind) in contradictions {
            #expect(
                machine(status).rejection(of: Outcome(kind: kind))?.code == ReportRejection.contradictsFinalState,
                "\(status) ← \(kind)")
        }
    }

    @Test func reportsOutOfOrderOrOnOpenPaymentsAreApplied() {
        let accepted: [(PaymentStatus, Outcome.Kind)] = [
            (.canceled, .authorized), (.succeeded, .authorized), (.succeeded, .pending), (.succeeded, .succeeded),
            (.failed, .declined), (.canceled, .canceled), (.requiresAction, .succeeded), (.authorized, .canceled),
            (.unknown, .declined), (.processing, .succeeded),
        ]
        for (status, kind) in accepted {
            #expect(machine(status).rejection(of: Outcome(kind: kind)) == nil, "\(status) ← \(kind)")
        }
    }
}
