import Foundation
import ProviderKit
import SwitchyardCrypto
import Testing

@testable import WorldlineSipsPlugin

/// A verified automatic response is identified by its sealed `Data` alone: form fields the seal does not
/// cover play no part.
@Suite struct SipsNotificationReplayTests {
    @Test func anUnsignedFieldAddedDoesNotChangeTheDedupKey() async throws {
        let data = SipsNotificationTests.data()
        let (original, _) = try await SipsNotificationTests.notify(SipsNotificationTests.hmacBody(data))
        #expect(original.verified)
        #expect(original.dedupKey == data)
        var extended = SipsNotificationTests.hmacBody(data)
        extended.append(contentsOf: Array("&note=replayed".utf8))
        let (replay, _) = try await SipsNotificationTests.notify(extended)
        #expect(replay.verified)
        #expect(replay.dedupKey == original.dedupKey)
        let (other, _) = try await SipsNotificationTests.notify(
            SipsNotificationTests.hmacBody(SipsNotificationTests.data(code: "05")))
        #expect(other.dedupKey != original.dedupKey, "other signed content is another notification")
    }
}
