import Foundation
import SwitchyardCore
import SwitchyardHTTP
import Testing

/// The `Switchyard-Signature` header, and the catalogue and retry schedule behind deliveries.
struct WebhookSignatureTests {
    let body = Data(#"{"id":"evt_1","type":"payment.succeeded"}"#.utf8)

    @Test func theSignatureIsHMACSHA256OfTimestampDotBody() {
        // Computed independently: printf '1700000000.{"id":"evt_1","type":"payment.succeeded"}' |
        //   openssl dgst -sha256 -hmac whsec_test
        let header = WebhookSignature.sign(secret: "whsec_test", timestamp: 1_700_000_000, body: body)
        #expect(header == "t=1700000000,v1=\(Self.vector)")
    }

    static let vector = "3d34f860ecc2c5fc3978518b0564a6649bd191eb2caa286ec3976e3bc9929d7d"

    @Test func verificationChecksBodySecretAndAge() {
        let now = Date(timeIntervalSince1970: 1_700_000_100)
        let header = WebhookSignature.sign(secret: "whsec_test", timestamp: 1_700_000_000, body: body)
        #expect(
            WebhookSignature.verify(header: header, secret: "whsec_test", body: body, now: now)
                == .success(1_700_000_000))
        #expect(
            WebhookSignature.verify(header: header, secret: "whsec_other", body: body, now: now) == .failure(.mismatch))
        #expect(
            WebhookSignature.verify(header: header, secret: "whsec_test", body: body + Data(" ".utf8), now: now)
                == .failure(.mismatch))
        let late = Date(timeIntervalSince1970: 1_700_000_000 + 301)
        #expect(
            WebhookSignature.verify(header: header, secret: "whsec_test", body: body, now: late) == .failure(.tooOld))
        #expect(
            WebhookSignature.verify(header: "v1=abc", secret: "whsec_test", body: body, now: now)
                == .failure(.malformed))
        #expect(WebhookSignature.verify(header: "", secret: "whsec_test", body: body, now: now) == .failure(.malformed))
        // While a secret rotates, any of several v1 values may match.
        let two = "t=1700000000,v1=00ff," + header.split(separator: ",")[1]
        #expect(
            WebhookSignature.verify(header: two, secret: "whsec_test", body: body, now: now) == .success(1_700_000_000))
    }

    @Test func eventTypePatterns() {
        #expect(WebhookEventType.all.contains("payment.succeeded"))
        #expect(WebhookEventType.all.contains("refund.failed"))
        #expect(WebhookEventType.all.contains("payment_method.revoked"))
        #expect(WebhookEventType.isValidPattern("*"))
        #expect(WebhookEventType.isValidPattern("payment_method.*"))
        #expect(!WebhookEventType.isValidPattern("payment.exploded"))
        #expect(!WebhookEventType.isValidPattern("customer.*"))
        #expect(WebhookEventType.matches(["refund.*"], type: "refund.failed"))
        #expect(!WebhookEventType.matches(["payment.*"], type: "payment_method.active"))
        #expect(WebhookEventType.matches(["payment_method.*"], type: "payment_method.active"))
        #expect(!WebhookEventType.matches(["payment.succeeded"], type: "payment.failed"))
    }

    @Test func theDefaultScheduleSpansAboutADayThenDeadLetters() throws {
        let policy = PlatformPolicy.Webhooks()
        let total = policy.retryScheduleMs.reduce(0, +)
        #expect(total > 20 * 3_600_000 && total < 28 * 3_600_000)
        #expect(policy.attemptLimit == 10)
        let now = Date(timeIntervalSince1970: 0)
        #expect(policy.retryAt(afterAttempts: 1, now: now) == Date(timeIntervalSince1970: 30))
        #expect(policy.retryAt(afterAttempts: 9, now: now) == Date(timeIntervalSince1970: 28_800))
        #expect(policy.retryAt(afterAttempts: 10, now: now) == nil)
        var broken = policy
        broken.leaseMs = broken.timeoutMs
        #expect(broken.problem() != nil)
        let decoded = try JSONDecoder().decode(
            PlatformPolicy.self, from: Data(#"{"webhooks":{"retry_schedule_ms":[1000],"require_https":false}}"#.utf8))
        #expect(decoded.webhooks.retryScheduleMs == [1000])
        #expect(decoded.webhooks.requireHTTPS == false)
        #expect(decoded.webhooks.timeoutMs == 10_000)
    }
}
