import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Failover moves to the next account only when nothing was sent; never on `unknown` or a decline.
struct FailoverTests {
    @Test func notSentMovesToTheNextAccount() async throws {
        let world = DomainWorld()
        world.gateway.script(.authorize, at: world.accounts[0], .notSent("connection refused"))
        world.gateway.script(.authorize, at: world.accounts[1], .succeeded())
        let record = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(record.payment.status == .succeeded)
        #expect(record.payment.providerAccountId == world.accounts[1])
        #expect(world.gateway.calls(.authorize).map(\.accountId) == world.accounts)
        #expect(record.attempts.map(\.sequence) == [1, 2])
        #expect(record.attempts.map(\.outcome) == [.notSent, .succeeded])
        #expect(record.attempts[1].reason.hasPrefix("failover"))
    }

    @Test func unknownNeverFailsOver() async throws {
        let world = DomainWorld()
        world.gateway.script(.authorize, at: world.accounts[0], .unknown("read timeout"))
        world.gateway.script(.authorize, at: world.accounts[1], .succeeded())
        let record = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(record.payment.status == .unknown)
        #expect(record.payment.resolution?.since == world.clock.date)
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[0]])
    }

    @Test func aDeclineNeverFailsOverByDefault() async throws {
        let world = DomainWorld()
        world.gateway.script(
            .authorize, at: world.accounts[0], .declined(code: "do_not_honor", message: "no", retryable: true))
        let record = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(record.payment.status == .failed)
        #expect(world.gateway.calls(.authorize).count == 1)
    }

    @Test func nothingSentAnywhereFailsAfterEveryCandidate() async throws {
        let world = DomainWorld(accounts: 3)
        world.gateway.script(.authorize, .notSent("down"), .notSent("down"), .notSent("down"))
        let record = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(record.payment.status == .failed)
        #expect(record.payment.failureCode == "provider_unreachable")
        #expect(world.gateway.calls(.authorize).map(\.accountId) == world.accounts)
    }

    @Test func theAttemptLimitBoundsFailover() async throws {
        var policy = PlatformPolicy()
        policy.failover.attemptLimit = 2
        let world = DomainWorld(accounts: 3, policy: policy)
        world.gateway.script(.authorize, .notSent("down"), .notSent("down"), .succeeded())
        let record = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(record.payment.status == .failed)
        #expect(world.gateway.calls(.authorize).count == 2)
    }

    @Test func anOpenBreakerSkipsTheUnhealthyAccount() async throws {
        var policy = PlatformPolicy()
        policy.breaker.failureThreshold = 1
        let world = DomainWorld(policy: policy)
        // The first account fails once (nothing sent): its breaker opens, the payment fails over.
        world.gateway.script(.authorize, at: world.accounts[0], .notSent("down"))
        world.gateway.script(.authorize, at: world.accounts[1], .succeeded(), .succeeded(), .succeeded())
        _ = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(await world.service.health.unavailability(of: world.accounts[0]) != nil)
        // The next payment goes straight to the healthy account.
        let second = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(second.payment.providerAccountId == world.accounts[1])
        #expect(second.attempts.map(\.accountId) == [world.accounts[1]])
        #expect(second.payment.routing?.skipped.map(\.accountId) == [world.accounts[0]])
        #expect(world.gateway.calls(.authorize).filter { $0.accountId == world.accounts[0] }.count == 1)
        // Past the cool-down the account is tried again (a probe).
        world.clock.advance(Double(policy.breaker.coolDownMs) / 1000 + 1)
        world.gateway.script(.authorize, at: world.accounts[0], .succeeded())
        let third = try await world.service.create(tenant: world.tenant, try world.request())
        #expect(third.payment.providerAccountId == world.accounts[0])
    }
}
