import Foundation
import SwitchyardCore
import Testing

/// When a waiting payment's notification is overdue: the account's observed percentile within the floor and
/// the cap, doubling intervals after, and the per-account budget.
struct OverdueNotificationsTests {
    let policy = OverdueNotifications()

    @Test func theObservedPercentileIsUsedWithinTheFloorAndTheCap() {
        #expect(policy.threshold(observed: nil) == 60)
        #expect(policy.threshold(observed: 3) == 10)
        #expect(policy.threshold(observed: 25) == 25)
        #expect(policy.threshold(observed: 500) == 60)
        #expect(policy.threshold(observed: .infinity) == 60)
    }

    @Test func tooFewSamplesGiveNoPercentile() {
        #expect(policy.observed(Array(repeating: 1, count: 19)) == nil)
        let samples = (1...100).map(TimeInterval.init)
        #expect(policy.observed(samples) == 99)
        var median = policy
        median.percentile = 50
        #expect(median.observed(samples.shuffled()) == 50)
    }

    @Test func inquiriesBackOffToTheLongestInterval() {
        #expect(policy.interval(after: 1, threshold: 10) == 20)
        #expect(policy.interval(after: 2, threshold: 10) == 30)
        #expect(policy.interval(after: 60, threshold: 10) == 30)
    }

    @Test func theBudgetIsAShareOfTheMinutePerLook() {
        #expect(policy.budget(poll: 1) == 1)
        #expect(policy.budget(poll: 10) == 10)
        var small = policy
        small.inquiriesPerMinute = 1
        #expect(small.budget(poll: 1) == 1)
    }
}
