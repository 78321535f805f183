import Foundation
import SwitchyardCore

/// Provider access tokens kept in memory, with a refresh lock per account and kind that one caller holds
/// at a time, released however the body ends, and given up by a holder that keeps it past its lease.
public actor InMemoryAccessTokens: AccessTokenStore {
    private struct Slot: Hashable {
        var accountId: UUID
        var kind: String
    }

    private struct Hold {
        var holder: UUID
        var until: ContinuousClock.Instant
    }

    private var tokens: [Slot: (token: String, expiresAt: Date)] = [:]
    private var holds: [Slot: Hold] = [:]

    public init() {}

    public func accessToken(accountId: UUID, kind: String) async throws -> (token: String, expiresAt: Date)? {
        tokens[Slot(accountId: accountId, kind: kind)]
    }

    public func storeAccessToken(accountId: UUID, kind: String, token: String, expiresAt: Date) async throws {
        tokens[Slot(accountId: accountId, kind: kind)] = (token, expiresAt)
    }

    public func withAccessTokenRefreshLock<T: Sendable>(
        accountId: UUID, kind: String, wait: Duration, lease: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        let slot = Slot(accountId: accountId, kind: kind)
        let me = UUID()
        let giveUp = ContinuousClock.now.advanced(by: wait)
        while !acquire(slot, as: me, lease: lease) {
            guard ContinuousClock.now < giveUp else { return nil }
            // Polls for the lock: there is no notification of its release to wait on.
            try await Task.sleep(for: .milliseconds(2))
        }
        do {
            let result = try await body()
            release(slot, held: me)
            return result
        } catch {
            release(slot, held: me)
            throw error
        }
    }

    private func acquire(_ slot: Slot, as holder: UUID, lease: Duration) -> Bool {
        let now = ContinuousClock.now
        if let hold = holds[slot], hold.until > now { return false }
        holds[slot] = Hold(holder: holder, until: now.advanced(by: lease))
        return true
    }

    private func release(_ slot: Slot, held holder: UUID) {
        if holds[slot]?.holder == holder { holds[slot] = nil }
    }
}
