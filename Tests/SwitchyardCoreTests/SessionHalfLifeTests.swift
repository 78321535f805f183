import Foundation
import Testing

@testable import SwitchyardCore

struct SessionHalfLifeTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    var expiresAt: Date { start.addingTimeInterval(600) }

    func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test func theMidpointIsHalfWayToTheExpiry() {
        #expect(SessionHalfLife.midpoint(start: start, expiresAt: expiresAt) == at(300))
        #expect(SessionHalfLife.midpoint(start: start, expiresAt: at(-10)) == start)
    }

    @Test func waitsBeforeHalfLife() {
        #expect(!SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: nil, now: at(0)))
        #expect(!SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: nil, now: at(299)))
    }

    @Test func syncsOncePastHalfLife() {
        #expect(SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: nil, now: at(300)))
        #expect(SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: nil, now: at(599)))
        // Synced before the half-life point (e.g. by an earlier session): due again.
        #expect(SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: at(100), now: at(400)))
        // Already synced since the half-life point: wait for the expiry sweep.
        #expect(!SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: at(300), now: at(400)))
        #expect(!SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: at(350), now: at(599)))
    }

    @Test func leavesExpiredSessionsToTheSweeper() {
        #expect(!SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: nil, now: at(600)))
        #expect(!SessionHalfLife.shouldSync(start: start, expiresAt: expiresAt, lastSyncedAt: nil, now: at(9_000)))
    }
}
