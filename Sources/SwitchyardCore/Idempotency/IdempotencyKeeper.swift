import Foundation

/// Carries out an ``IdempotencyMachine``'s actions on the store for the request that owns a key: claims it,
/// stores its answer, releases it (now, or once the database answers again: ``PendingKeyReleases``). It
/// decides nothing itself; every write is conditional on the request still owning the key.
public struct IdempotencyKeeper: Sendable {
    let claims: any IdempotencyRepository
    let releases: PendingKeyReleases
    let clock: @Sendable () -> Date

    public init(claims: any IdempotencyRepository, releases: PendingKeyReleases, clock: @escaping @Sendable () -> Date)
    {
        self.claims = claims
        self.releases = releases
        self.clock = clock
    }

    /// Claims `scope`'s key and moves `key` by the store's answer; returns what to do next. When the claim
    /// fails, what it may have stored unseen (a COMMIT that landed while its connection dropped) is released.
    public func claim(_ scope: IdempotencyScope, _ key: inout IdempotencyMachine) async throws
        -> IdempotencyMachine.Action
    {
        let claim: IdempotencyClaim
        do {
            claim = try await claims.claimIdempotent(
                tenant: scope.tenant, key: scope.key, requestHash: scope.requestHash, owner: scope.owner,
                lease: scope.lease)
        } catch {
            try await settle(key.apply(.writeFailed), scope, &key)
            throw error
        }
        return key.apply(.claimed(claim, at: clock()))
    }

    /// Carries out `action` when it is a write on the key (an answer to store, a claim to release); any
    /// other action is the caller's. An answer that cannot be stored releases the key as `key` says, and
    /// the failure goes on.
    public func settle(_ action: IdempotencyMachine.Action, _ scope: IdempotencyScope, _ key: inout IdempotencyMachine)
        async throws
    {
        switch action {
        case .answer(let outcome):
            do {
                try await claims.finishIdempotent(
                    tenant: scope.tenant, key: scope.key, owner: scope.owner, outcome: outcome)
            } catch {
                try await settle(key.apply(.writeFailed), scope, &key)
                throw error
            }
        case .release(let linking):
            await releases.release(
                .init(tenant: scope.tenant, key: scope.key, owner: scope.owner, linking: linking))
        case .claim, .run, .replay, .refuse, .none:
            return
        }
    }
}

/// What a request's work under an `Idempotency-Key` did: its key as the work left it, what the key awaits
/// next (``IdempotencyMachine/Action/none`` when the work settled it in its own transactions), and the
/// work's result.
public struct IdempotentRun<Value: Sendable>: Sendable {
    public var key: IdempotencyMachine
    public var next: IdempotencyMachine.Action
    public var result: Result<Value, any Error>

    public init(key: IdempotencyMachine, next: IdempotencyMachine.Action, result: Result<Value, any Error>) {
        self.key = key
        self.next = next
        self.result = result
    }
}
