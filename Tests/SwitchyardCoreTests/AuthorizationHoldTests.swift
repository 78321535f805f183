import Foundation
import Testing

@testable import SwitchyardCore

struct AuthorizationHoldTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    /// A 100-hour hold synced at half of it and at nine tenths.
    let hold = AuthorizationHold(hold: 100 * 3600, shares: [0.9, 0.5])

    func at(hours: Double) -> Date { start.addingTimeInterval(hours * 3600) }

    @Test func theSyncPointsAreSharesOfTheHoldFromItsStart() {
        #expect(hold.syncPoints(start: start) == [at(hours: 50), at(hours: 90)])
        #expect(hold.expiry(start: start) == at(hours: 100))
        #expect(hold.lastDuePoint(start: start, now: at(hours: 49)) == nil)
        #expect(hold.lastDuePoint(start: start, now: at(hours: 60)) == at(hours: 50))
        #expect(hold.lastDuePoint(start: start, now: at(hours: 95)) == at(hours: 90))
    }

    @Test func waitsBeforeTheFirstPoint() {
        #expect(!hold.shouldSync(start: start, lastSyncedAt: nil, now: start))
        #expect(!hold.shouldSync(start: start, lastSyncedAt: nil, now: at(hours: 49.9)))
    }

    @Test func syncsOnceAtEachPoint() {
        #expect(hold.shouldSync(start: start, lastSyncedAt: nil, now: at(hours: 50)))
        // Synced at the first point: nothing until the second.
        #expect(!hold.shouldSync(start: start, lastSyncedAt: at(hours: 50), now: at(hours: 89)))
        #expect(hold.shouldSync(start: start, lastSyncedAt: at(hours: 50), now: at(hours: 90)))
        #expect(!hold.shouldSync(start: start, lastSyncedAt: at(hours: 90), now: at(hours: 99)))
    }

    @Test func pointsMissedWhileNobodyLookedCostOneSync() {
        #expect(hold.shouldSync(start: start, lastSyncedAt: nil, now: at(hours: 120)))
        #expect(!hold.shouldSync(start: start, lastSyncedAt: at(hours: 120), now: at(hours: 500)))
    }

    @Test func thePolicyDefaultIsAWeekSyncedAtHalfAndNineTenths() throws {
        let policy = try JSONDecoder().decode(PlatformPolicy.self, from: Data("{}".utf8))
        let rule = AuthorizationHold(policy: policy.settlement)
        #expect(rule.hold == 168 * 3600)
        #expect(rule.shares == [0.5, 0.9])
        let set = try JSONDecoder().decode(
            PlatformPolicy.self,
            from: Data(#"{"settlement":{"authorization_hold_hours":24,"authorization_sync_percent":[75]}}"#.utf8))
        #expect(AuthorizationHold(policy: set.settlement) == AuthorizationHold(hold: 24 * 3600, shares: [0.75]))
    }

    @Test func absurdPolicyValuesAreRefused() {
        let bad = [
            #"{"authorization_hold_hours":0}"#, #"{"authorization_hold_hours":745}"#,
            #"{"authorization_hold_hours":-1}"#, #"{"authorization_sync_percent":[]}"#,
            #"{"authorization_sync_percent":[0]}"#, #"{"authorization_sync_percent":[101]}"#,
            #"{"authorization_sync_percent":[1,2,3,4,5,6,7,8,9,10,11]}"#,
        ]
        for section in bad {
            #expect(throws: DecodingError.self, "\(section)") {
                try JSONDecoder().decode(PlatformPolicy.self, from: Data(#"{"settlement":\#(section)}"#.utf8))
            }
        }
    }
}
