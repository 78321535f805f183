import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

/// A verified IPN is identified by its signed fields alone, so a copy with an unsigned field added (or the
/// fields in another order) is recognised as the same notification.
@Suite struct CitconNotificationReplayTests {
    func dedupKey(_ body: String) async throws -> String? {
        let request = NotificationRequest(
            method: "POST", path: "/notifications/acct_citcon_1",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
        let result = try await CitconProvider(host: FakeHost()).notification(request, account: Fixtures.account())
        #expect(result.verified)
        return result.dedupKey
    }

    @Test func anUnsignedFieldAddedDoesNotChangeTheDedupKey() async throws {
        let original = try #require(try await dedupKey(CitconIPNSamples.chargeForm))
        #expect(original.contains("status=captured") && original.contains("reference=att_01 x+y"))
        #expect(!original.contains("secret"), "the key never carries the IPN secret")
        #expect(try await dedupKey(CitconIPNSamples.chargeForm + "&note=replayed") == original)
        #expect(try await dedupKey("note=first&" + CitconIPNSamples.chargeForm) == original)
    }
}
