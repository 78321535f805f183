import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomNotificationVerificationTests {
    static let rejection =
        #"{"result":{"resultCode":"INVALID_SIGNATURE","resultStatus":"F","resultMessage":"invalid signature"}}"#
    static let body = AntomNotificationTests.payment("PAYMENT_RESULT")

    static func expectRejected(_ result: NotificationResult, _ reason: String) {
        #expect(!result.verified, "\(reason)")
        #expect(result.reply.status == 401, "\(reason)")
        #expect(result.reply.body == Self.rejection, "\(reason)")
        #expect(result.events.isEmpty && result.credentials.isEmpty, "\(reason)")
        #expect(result.failureReason == reason)
    }

    @Test func tamperedBodyIsRejected() async throws {
        var request = Fixtures.notification(Self.body)
        request.body = Data(Self.body.replacingOccurrences(of: "\"1000\"", with: "\"100000\"").utf8)
        Self.expectRejected(try await AntomNotificationTests.notify(request), "signature mismatch")
    }

    @Test func otherKeysPathsAndTimesAreRejected() async throws {
        let wrongKey = Fixtures.notification(Self.body, key: Fixtures.merchantKey)
        Self.expectRejected(try await AntomNotificationTests.notify(wrongKey), "signature mismatch")
        var otherPath = Fixtures.notification(Self.body)
        otherPath.path = "/notifications/acct_other"
        Self.expectRejected(try await AntomNotificationTests.notify(otherPath), "signature mismatch")
        var otherTime = Fixtures.notification(Self.body)
        otherTime.headers = otherTime.headers.map {
            $0.name == "Request-Time" ? HTTPHeader("Request-Time", "2025-11-08T11:06:43+00:00") : $0
        }
        Self.expectRejected(try await AntomNotificationTests.notify(otherTime), "signature mismatch")
    }

    @Test func missingRepeatedOrForeignHeadersAreRejected() async throws {
        let good = Fixtures.notification(Self.body)
        for name in ["client-id", "request-time", "signature"] {
            var missing = good
            missing.headers.removeAll { $0.name.lowercased() == name }
            Self.expectRejected(try await AntomNotificationTests.notify(missing), "missing \(name) header")
            var repeated = good
            repeated.headers += good.headers.filter { $0.name.lowercased() == name }
            Self.expectRejected(try await AntomNotificationTests.notify(repeated), "repeated \(name) header")
        }
        let foreign = Fixtures.notification(Self.body, clientId: "SANDBOX_OTHER")
        Self.expectRejected(try await AntomNotificationTests.notify(foreign), "client id mismatch")
    }

    @Test func aCorrectlySignedNotificationVerifiesWhateverTheHeaderCase() async throws {
        var request = Fixtures.notification(Self.body)
        request.headers = request.headers.map { HTTPHeader($0.name.lowercased(), $0.value) }
        #expect(try await AntomNotificationTests.notify(request).verified)
    }

    @Test func missingAntomKeyIsMisconfigured() async {
        var account = Fixtures.account()
        account.credentials["antom_public_key"] = nil
        await #expect(throws: ProviderError.misconfigured("credential antom_public_key is missing")) {
            try await AntomNotificationTests.notify(Fixtures.notification(Self.body), account: account)
        }
        account.credentials["antom_public_key"] = "garbage"
        await #expect(
            throws: ProviderError.misconfigured("credential antom_public_key is not a readable RSA public key")
        ) {
            try await AntomNotificationTests.notify(Fixtures.notification(Self.body), account: account)
        }
    }
}
