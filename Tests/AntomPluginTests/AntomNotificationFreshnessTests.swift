import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

/// A notification's signed `request-time` must be close to the host's clock, and a verified notification
/// says what identifies it (its signed content) and which of its fields are secret.
@Suite struct AntomNotificationFreshnessTests {
    static let body = AntomNotificationTests.payment("PAYMENT_RESULT")

    @Test func aCorrectlySignedButStaleOrFutureNotificationIsRefused() async throws {
        // The host's clock is Fixtures.now (2025-11-08T11:06:40Z).
        for time in ["2025-11-08T10:56:39+00:00", "2025-11-08T11:16:41+00:00", "1762599399000", "not a time"] {
            let request = Fixtures.notification(Self.body, time: time)
            AntomNotificationVerificationTests.expectRejected(
                try await AntomNotificationTests.notify(request), "stale_timestamp")
        }
    }

    @Test func aSignedTimeWithinTheToleranceIsAcceptedInEitherForm() async throws {
        for time in ["2025-11-08T10:56:41+00:00", "2025-11-08T11:16:39+00:00", "1762600000000", "1762599500123"] {
            let result = try await AntomNotificationTests.notify(Fixtures.notification(Self.body, time: time))
            #expect(result.verified, "\(time)")
        }
    }

    @Test func theDedupKeyIsTheSignedContentAndTokenFieldsAreNamedSecret() async throws {
        let request = Fixtures.notification(Self.body)
        let result = try await AntomNotificationTests.notify(request)
        let expected = AntomSigning.content(
            path: Fixtures.notificationPath, clientId: Fixtures.clientId, time: "2025-11-08T11:06:42+00:00",
            body: Array(Self.body.utf8))
        #expect(result.dedupKey == String(decoding: expected, as: UTF8.self))
        #expect(Set(result.secretFields).isSuperset(of: ["accessToken", "cardToken"]))
        let later = try await AntomNotificationTests.notify(
            Fixtures.notification(Self.body, time: "2025-11-08T11:06:50+00:00"))
        #expect(later.dedupKey != result.dedupKey, "another signed delivery time is another notification")
    }
}
