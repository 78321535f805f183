import Foundation
import SwitchyardCore
import Testing

struct TokenBucketTests {
    @Test func aFullBucketAdmitsItsBurstThenRefillsAtItsRate() {
        var bucket = TokenBucket(rate: 2, capacity: 3, now: 100)
        #expect((0..<3).map { _ in bucket.take(now: 100) } == [.admitted, .admitted, .admitted])
        #expect(bucket.take(now: 100) == .limited(retryAfterSeconds: 1))
        // Half a second at 2/s is one token.
        #expect(bucket.take(now: 100.5) == .admitted)
        #expect(bucket.take(now: 100.5) == .limited(retryAfterSeconds: 1))
        // A long pause refills to the capacity, never beyond.
        #expect(
            (0..<4).map { _ in bucket.take(now: 1_000) } == [
                .admitted, .admitted, .admitted, .limited(retryAfterSeconds: 1),
            ])
    }

    @Test func retryAfterIsWholeSecondsAtLeastOne() {
        var slow = TokenBucket(rate: 0.1, capacity: 1, now: 0)
        #expect(slow.take(now: 0) == .admitted)
        #expect(slow.take(now: 0) == .limited(retryAfterSeconds: 10))
        #expect(slow.take(now: 2.5) == .limited(retryAfterSeconds: 8))
        #expect(slow.take(now: 9.99) == .limited(retryAfterSeconds: 1))
        #expect(slow.take(now: 10) == .admitted)
        var fast = TokenBucket(rate: 1_000, capacity: 1, now: 0)
        #expect(fast.take(now: 0) == .admitted)
        #expect(fast.take(now: 0) == .limited(retryAfterSeconds: 1))
    }

    @Test func aClockGoingBackwardsAddsNothing() {
        var bucket = TokenBucket(rate: 1, capacity: 1, now: 50)
        #expect(bucket.take(now: 50) == .admitted)
        #expect(bucket.take(now: 10) == .limited(retryAfterSeconds: 1))
        #expect(bucket.take(now: 50.5) == .limited(retryAfterSeconds: 1))
        #expect(bucket.take(now: 51) == .admitted)
    }

    @Test func unusableLimitsFallBackToTheSmallestBucket() {
        for rate in [0, -1, .nan, .infinity] as [Double] {
            var bucket = TokenBucket(rate: rate, capacity: -5, now: 0)
            #expect(bucket.take(now: 0) == .admitted)
            #expect(bucket.take(now: 0) == .limited(retryAfterSeconds: 1))
        }
    }

    @Test func newLimitsKeepTheTokensHeldUpToTheNewCapacity() {
        var bucket = TokenBucket(rate: 1, capacity: 10, now: 0)
        bucket.update(rate: 1, capacity: 2, now: 0)
        #expect((0..<3).map { _ in bucket.take(now: 0) } == [.admitted, .admitted, .limited(retryAfterSeconds: 1)])
    }

    @Test func tenantPoliciesOnlyTightenTheRequestLimits() {
        var platform = PlatformPolicy()
        platform.tenants = .init(requestsPerSecond: 10, burst: 20, maxConcurrentRequests: 5)
        func policy(_ rate: Double, _ burst: Int, _ concurrent: Int) -> TenantPolicy {
            var policy = TenantPolicy()
            policy.requestsPerSecond = rate
            policy.burst = burst
            policy.maxConcurrentRequests = concurrent
            return policy
        }
        let tighter = policy(2, 4, 1)
        #expect(tighter.loosening(platform).isEmpty)
        #expect(
            tighter.applied(to: platform).tenants == .init(requestsPerSecond: 2, burst: 4, maxConcurrentRequests: 1))
        let looser = policy(50, 0, 6)
        #expect(looser.loosening(platform).count == 3)
        #expect(
            looser.applied(to: platform).tenants == .init(requestsPerSecond: 10, burst: 1, maxConcurrentRequests: 5))
        #expect(policy(.nan, 1, 1).loosening(platform).count == 1)
    }
}
