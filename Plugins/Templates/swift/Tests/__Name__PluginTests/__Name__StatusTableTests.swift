import ProviderKit
import Testing

@testable import __Name__Plugin

@Suite struct __Name__StatusTableTests {
    @Test(arguments: [
        ("succeeded", Outcome.Kind.succeeded), ("authorized", .authorized),
        ("pending", .pending), ("processing", .pending), ("requires_action", .pending),
        ("declined", .declined), ("failed", .declined),
        ("canceled", .canceled), ("cancelled", .canceled), ("expired", .canceled),
    ])
    func everyKnownStatusIsMapped(status: String, kind: Outcome.Kind) {
        #expect(__Name__Mapping.outcomeKind(forStatus: status) == kind)
        #expect(__Name__Mapping.outcomeKind(forStatus: " \(status.uppercased()) ") == kind)
    }

    @Test(arguments: ["", "paid", "refunded", "success", "unknown"])
    func anythingElseIsUnknown(status: String) {
        #expect(__Name__Mapping.outcomeKind(forStatus: status) == .unknown)
        #expect(__Name__Mapping.statusOutcome(status).code == "unrecognised_status")
    }

    @Test func missingStatusIsUnknown() {
        #expect(__Name__Mapping.outcomeKind(forStatus: nil) == .unknown)
    }

    @Test func declineCarriesTheProvidersCodeWhenSafe() {
        #expect(__Name__Mapping.statusOutcome("declined", failureCode: "card_declined").code == "card_declined")
        #expect(__Name__Mapping.statusOutcome("declined").code == "payment_declined")
        #expect(__Name__Mapping.statusOutcome("declined", failureCode: "a b<c>").code == "UNRECOGNISED_CODE")
        #expect(__Name__Mapping.statusOutcome("declined").retryable == false)
    }
}
