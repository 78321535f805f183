import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

/// A rotated webhook secret signs beside the new one for its overlap, then stops.
struct WebhookSecretRotationTests {
    @Test func theOldSecretSignsUntilTheOverlapEnds() throws {
        let clock = ManualClock()
        let rotation = try WebhookSecretRotation(requestedSeconds: 600, defaultSeconds: 86_400, now: clock.date)
        #expect(rotation.previousExpiresAt == clock.date.addingTimeInterval(600))
        func secrets() -> [String] {
            WebhookSecretRotation.signingSecrets(
                current: "new", previous: "old", previousExpiresAt: rotation.previousExpiresAt, now: clock.date)
        }
        #expect(secrets() == ["new", "old"])
        clock.advance(599)
        #expect(secrets() == ["new", "old"])
        clock.advance(1)
        #expect(secrets() == ["new"], "the overlap has ended")
    }

    @Test func theOverlapDefaultsToThePolicyAndIsBounded() throws {
        let clock = ManualClock()
        let byDefault = try WebhookSecretRotation(requestedSeconds: nil, defaultSeconds: 3_600, now: clock.date)
        #expect(byDefault.previousExpiresAt == clock.date.addingTimeInterval(3_600))
        let atOnce = try WebhookSecretRotation(requestedSeconds: 0, defaultSeconds: 3_600, now: clock.date)
        #expect(atOnce.previousExpiresAt == nil)
        #expect(
            WebhookSecretRotation.signingSecrets(
                current: "new", previous: "old", previousExpiresAt: nil, now: clock.date)
                == ["new"])
        for bad in [-1, WebhookSecretRotation.maximumOverlapSeconds + 1] {
            #expect(throws: CoreError.self) {
                try WebhookSecretRotation(requestedSeconds: bad, defaultSeconds: 3_600, now: clock.date)
            }
        }
        var policy = PlatformPolicy.Webhooks()
        policy.secretOverlapSeconds = WebhookSecretRotation.maximumOverlapSeconds + 1
        #expect(policy.problem() != nil)
    }

    @Test func aClaimSignsWithTheSecretsOfItsMoment() {
        let clock = ManualClock()
        let claim = ClaimedDelivery(
            id: "whd_1", tenantId: UUID(), eventId: "evt_1", eventType: "ping", endpointId: "we_1", url: "https://x",
            secret: "new", payload: Data(), attemptNumber: 1, previousSecret: "old",
            previousSecretExpiresAt: clock.date.addingTimeInterval(60))
        #expect(claim.signingSecrets(at: clock.date) == ["new", "old"])
        clock.advance(60)
        #expect(claim.signingSecrets(at: clock.date) == ["new"])
    }
}
