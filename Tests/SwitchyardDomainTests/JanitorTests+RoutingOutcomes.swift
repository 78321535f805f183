import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// The janitor deletes the recorded answers no statistics window can count any more.
struct JanitorRoutingOutcomeTests {
    @Test func answersOlderThanTheWindowArePrunedOnALook() async throws {
        var policy = PlatformPolicy()
        policy.adaptiveRouting.windowSeconds = 600
        let world = DomainWorld(policy: policy)
        _ = try await world.create(.succeeded())
        world.clock.advance(601)
        _ = try await world.create(Outcome(kind: .declined, code: "05"))
        let everything = AuthorizationStatsWindow(attempts: 200, since: Date(timeIntervalSince1970: 0))
        func counted() async throws -> (Int, Int)? {
            try await world.payments.authorizationStats(tenant: world.tenant, window: everything)
                .first { $0.country == nil }.map { ($0.approved, $0.declined) }
        }
        #expect(try await counted()! == (1, 1))
        await world.janitor.runOnce()
        #expect(try await counted()! == (0, 1), "the approval 601 s ago is past the 600 s window")
    }

    @Test func aLongerRetentionKeepsAnswersPastTheWindow() async throws {
        var policy = PlatformPolicy()
        policy.adaptiveRouting.windowSeconds = 600
        policy.retention.routingOutcomesHours = 1
        let world = DomainWorld(policy: policy)
        _ = try await world.create(.succeeded())
        world.clock.advance(601)
        await world.janitor.runOnce()
        let everything = AuthorizationStatsWindow(attempts: 200, since: Date(timeIntervalSince1970: 0))
        func approved() async throws -> Int? {
            try await world.payments.authorizationStats(tenant: world.tenant, window: everything)
                .first { $0.country == nil }?.approved
        }
        #expect(try await approved() == 1, "past the window but within the hour")
        world.clock.advance(3_000)
        await world.janitor.runOnce()
        #expect(try await approved() == nil)
    }
}
