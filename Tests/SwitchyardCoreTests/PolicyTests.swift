import Foundation
import Testing

@testable import SwitchyardCore

struct PolicyTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func theJanitorBacksOffThenSyncsHourlyUntilTheHorizon() throws {
        let janitor = PlatformPolicy.Janitor()
        var now = t0
        var delays: [Double] = []
        for syncs in 0..<8 {
            let next = try #require(janitor.nextSync(after: syncs, unknownSince: t0, now: now))
            delays.append(next.timeIntervalSince(now))
            now = next
        }
        #expect(delays == [5, 30, 120, 600, 3600, 3600, 3600, 3600])
        let nearHorizon = t0.addingTimeInterval(259_200 - 60)
        #expect(janitor.nextSync(after: 50, unknownSince: t0, now: nearHorizon) == t0.addingTimeInterval(259_200))
        #expect(janitor.nextSync(after: 51, unknownSince: t0, now: t0.addingTimeInterval(259_200)) == nil)
    }

    @Test func policyJSONSectionsDecodeWithDefaults() throws {
        let json = #"{"breaker":{"failure_threshold":2},"janitor":{"schedule_ms":[100,200]}}"#
        let policy = try JSONDecoder().decode(PlatformPolicy.self, from: Data(json.utf8))
        #expect(policy.breaker.failureThreshold == 2)
        #expect(policy.breaker.coolDownMs == 30_000)
        #expect(policy.janitor.scheduleMs == [100, 200])
        #expect(policy.janitor.horizonMs == 259_200_000)
        #expect(policy.failover.attemptLimit == 3)
        #expect(policy.problem() == nil)
        var bad = policy
        bad.failover.attemptLimit = 0
        #expect(bad.problem() != nil)
    }

    @Test func absurdNumbersAreRefusedWhenThePolicyIsRead() throws {
        let cases = [
            #"{"limits":{"provider_timeout_ms":9223372036854775807}}"#: "limits.provider_timeout_ms",
            #"{"limits":{"max_body_bytes":-1}}"#: "limits.max_body_bytes",
            #"{"failover":{"time_budget_ms":9223372036854775807}}"#: "failover.time_budget_ms",
            #"{"failover":{"attempt_limit":9223372036854775807}}"#: "failover.attempt_limit",
            #"{"breaker":{"cool_down_ms":9223372036854775807}}"#: "breaker.cool_down_ms",
            #"{"janitor":{"schedule_ms":[5000,9223372036854775807]}}"#: "janitor.schedule_ms",
            #"{"janitor":{"batch_size":100000000}}"#: "janitor.batch_size",
            #"{"webhooks":{"retry_schedule_ms":[9223372036854775807]}}"#: "webhooks.retry_schedule_ms",
            #"{"webhooks":{"timeout_ms":9223372036854775000,"lease_ms":9223372036854775807}}"#: "webhooks.timeout_ms",
            #"{"lifetimes":{"token_refresh_margin_seconds":-9223372036854775808}}"#:
                "lifetimes.token_refresh_margin_seconds",
        ]
        for (json, key) in cases {
            let policy = try JSONDecoder().decode(PlatformPolicy.self, from: Data(json.utf8))
            let problem = try #require(policy.problem(), "\(json) was accepted")
            #expect(problem.hasPrefix(key), "\(json): \(problem)")
        }
        #expect(PlatformPolicy().problem() == nil)
        let shipped = try JSONDecoder().decode(
            PlatformPolicy.self,
            from: Data(contentsOf: URL(fileURLWithPath: #filePath + "/../../../policy.json").standardized))
        #expect(shipped.problem() == nil)
        #expect(!TenantPolicy(breakerCoolDownMs: Int.max).loosening(PlatformPolicy()).isEmpty)
    }

    @Test func aTenantMayTightenButNeverLoosen() {
        var platform = PlatformPolicy()
        platform.failover.retryableDeclinesAllowed = false
        let tighter = TenantPolicy(
            attemptLimit: 2, timeBudgetMs: 5_000, breakerFailureThreshold: 2, reviewAfterMs: 60_000)
        #expect(tighter.loosening(platform).isEmpty)
        let effective = tighter.applied(to: platform)
        #expect(effective.failover.attemptLimit == 2)
        #expect(effective.failover.timeBudgetMs == 5_000)
        #expect(effective.breaker.failureThreshold == 2)
        #expect(effective.janitor.horizonMs == 60_000)

        let looser = TenantPolicy(
            attemptLimit: 9, timeBudgetMs: 60_000, retryableDeclines: true, breakerFailureThreshold: 50,
            breakerCoolDownMs: 1, reviewAfterMs: 999_999_999_999)
        #expect(looser.loosening(platform).count == 6)
        let capped = looser.applied(to: platform)
        #expect(capped.failover.attemptLimit == 3)
        #expect(capped.failover.retryableDeclines == false)
        #expect(capped.breaker.coolDownMs == 30_000)
    }
}
