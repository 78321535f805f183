import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconStatusTableTests {
    @Test(arguments: [
        ("succeeded", Outcome.Kind.succeeded), ("success", .succeeded), ("captured", .succeeded),
        ("authorized", .authorized),
        ("initiated", .pending), ("pending", .pending),
        ("failed", .declined), ("fail", .declined),
        ("canceled", .canceled), ("cancelled", .canceled), ("expired", .canceled),
    ])
    func everySpellingIsNormalised(status: String, kind: Outcome.Kind) {
        #expect(CitconMapping.outcomeKind(forStatus: status) == kind)
        #expect(CitconMapping.outcomeKind(forStatus: status.uppercased()) == kind)
        #expect(CitconMapping.outcomeKind(forStatus: " \(status) ") == kind)
    }

    @Test(arguments: ["", "processing", "Lost", "refunded", "authorised", "succeed"])
    func anythingElseIsUnknown(status: String) {
        #expect(CitconMapping.outcomeKind(forStatus: status) == .unknown)
        #expect(CitconMapping.statusOutcome(status).code == "unrecognised_status")
    }

    @Test func missingStatusIsUnknown() {
        #expect(CitconMapping.outcomeKind(forStatus: nil) == .unknown)
    }

    @Test func declinedAndCanceledStatusesCarryStableCodes() {
        #expect(CitconMapping.statusOutcome("fail").code == "payment_failed")
        #expect(CitconMapping.statusOutcome("fail").retryable == false)
        #expect(CitconMapping.statusOutcome("cancelled").code == "payment_canceled")
        #expect(CitconMapping.statusOutcome("expired").code == "payment_expired")
        #expect(CitconMapping.statusOutcome("cancelled").providerStatus == "cancelled")
    }

    @Test func epochValuesInSecondsAndMilliseconds() {
        #expect(CitconMapping.date(fromEpoch: 1_762_681_312) == Date(timeIntervalSince1970: 1_762_681_312))
        #expect(CitconMapping.date(fromEpoch: 1_762_681_312_000) == Date(timeIntervalSince1970: 1_762_681_312))
        #expect(CitconMapping.date(fromEpoch: 1_762_681_312_500) == Date(timeIntervalSince1970: 1_762_681_312.5))
        // The boundary: 1e12 and above are milliseconds.
        #expect(CitconMapping.date(fromEpoch: 999_999_999_999) == Date(timeIntervalSince1970: 999_999_999_999))
        #expect(CitconMapping.date(fromEpoch: 1_000_000_000_000) == Date(timeIntervalSince1970: 1_000_000_000))
    }
}
