import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineStatusTableTests {
    static let byText: [(String, Int?, Outcome.Kind)] = [
        ("CAPTURED", 9, .succeeded), ("CAPTURE_REQUESTED", 4, .succeeded), ("CAPTURE_REQUESTED", 91, .succeeded),
        ("REFUNDED", 8, .succeeded), ("PENDING_CAPTURE", 5, .authorized), ("REDIRECTED", 46, .pending),
        ("CREATED", 0, .pending), ("PENDING_PAYMENT", nil, .pending), ("PENDING_COMPLETION", 50, .pending),
        ("AUTHORIZATION_REQUESTED", 51, .pending), ("REJECTED", 2, .declined), ("REJECTED", 93, .declined),
        ("REJECTED_CAPTURE", 93, .declined), ("CANCELLED", 1, .canceled), ("CANCELLED", 6, .canceled),
        ("captured", nil, .succeeded),
    ]

    @Test(arguments: byText) func statusTextDecides(status: String, code: Int?, kind: Outcome.Kind) {
        #expect(WorldlineDirectMapping.outcomeKind(status: status, statusCode: code) == kind)
    }

    static let byCode: [(Int, Outcome.Kind)] = [
        (9, .succeeded), (4, .succeeded), (8, .succeeded), (5, .authorized), (46, .pending), (81, .pending),
        (2, .declined), (93, .declined), (83, .declined), (1, .canceled), (6, .canceled), (91, .unknown),
        (99, .unknown), (92, .unknown), (82, .unknown), (62, .unknown), (12345, .unknown),
    ]

    @Test(arguments: byCode) func statusCodeDecidesWithoutText(code: Int, kind: Outcome.Kind) {
        #expect(WorldlineDirectMapping.outcomeKind(status: nil, statusCode: code) == kind)
        #expect(WorldlineDirectMapping.outcomeKind(status: "SOMETHING_NEW", statusCode: code) == kind)
    }

    @Test func uncertainCodesOverrideTheText() {
        #expect(WorldlineDirectMapping.outcomeKind(status: "CAPTURE_REQUESTED", statusCode: 92) == .unknown)
        #expect(WorldlineDirectMapping.outcomeKind(status: "REFUND_REQUESTED", statusCode: 82) == .unknown)
        #expect(WorldlineDirectMapping.outcomeKind(status: nil, statusCode: nil) == .unknown)
    }

    @Test func outcomesCarryCodesForNonAcceptingClasses() {
        let uncertain = WorldlineDirectMapping.paymentOutcome(
            WorldlinePayment(id: "p", status: "CAPTURE_REQUESTED", statusOutput: WorldlineStatusOutput(statusCode: 92)))
        #expect(
            uncertain.kind == .unknown && uncertain.code == "payment_uncertain" && uncertain.providerPaymentId == "p")
        let processing = WorldlineDirectMapping.paymentOutcome(
            WorldlinePayment(statusOutput: WorldlineStatusOutput(statusCode: 99)))
        #expect(processing.code == "payment_processing" && processing.providerStatus == "statusCode 99")
        let cancelled = WorldlineDirectMapping.paymentOutcome(WorldlinePayment(status: "CANCELLED"))
        #expect(cancelled.kind == .canceled && cancelled.code == "payment_cancelled")
    }

    @Test func declineRetryHintComesFromReattemptInstructions() {
        func payment(_ indicator: String?) -> WorldlinePayment {
            WorldlinePayment(
                id: "p", status: "REJECTED",
                statusOutput: WorldlineStatusOutput(statusCode: 2, errors: [WorldlineAPIError(errorCode: "30511001")]),
                paymentOutput: WorldlinePaymentOutput(
                    cardPaymentMethodSpecificOutput: WorldlineCardOutput(
                        reattemptInstructions: indicator.map { WorldlineReattemptInstructions(indicator: $0) })))
        }
        let later = WorldlineDirectMapping.paymentOutcome(payment("retryLater"))
        #expect(later.kind == .declined && later.retryable == true && later.code == "30511001")
        #expect(WorldlineDirectMapping.paymentOutcome(payment("neverRetry")).retryable == false)
        #expect(WorldlineDirectMapping.paymentOutcome(payment(nil)).retryable == false)
    }
}
