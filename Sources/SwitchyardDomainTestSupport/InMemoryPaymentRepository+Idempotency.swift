import Foundation
import SwitchyardCore

/// `Idempotency-Key`s per tenant, with the PostgreSQL store's lease semantics: a request owns the key it
/// claimed until its lease ends, and every later change to the key is conditional on still owning it.
extension InMemoryPaymentRepository {
    public func startIdempotent(tenant: UUID, key: String, requestHash: String) async throws -> IdempotencyStart {
        transact { state in
            let id = KeyID(tenant: tenant, key: key)
            guard let row = state.keys[id] else {
                state.keys[id] = KeyRow(requestHash: requestHash)
                return .proceed
            }
            if row.requestHash != requestHash { return .mismatch }
            guard let status = row.status else { return .inProgress }
            return .replay(status: status, body: row.body ?? Data())
        }
    }

    public func finishIdempotent(tenant: UUID, key: String, status: Int, body: Data) async throws {
        transact { state in
            let id = KeyID(tenant: tenant, key: key)
            state.keys[id]?.status = status
            state.keys[id]?.body = body
        }
    }

    public func abandonIdempotent(tenant: UUID, key: String) async throws {
        transact { state in
            let id = KeyID(tenant: tenant, key: key)
            if state.keys[id]?.status == nil { state.keys[id] = nil }
        }
    }
}

extension InMemoryPaymentRepository.State {
    /// Claims `key` for `owner` until `until`: a new key, or one whose previous owner's lease ran out
    /// without a response (taken over, resuming with what that owner recorded as created).
    mutating func claim(tenant: UUID, key: String, requestHash: String, owner: String, now: Date, until: Date)
        -> IdempotencyClaim
    {
        let id = InMemoryPaymentRepository.KeyID(tenant: tenant, key: key)
        guard var row = keys[id] else {
            keys[id] = .init(requestHash: requestHash, owner: owner, lockedUntil: until)
            return .proceed
        }
        if row.requestHash != requestHash { return .mismatch }
        if let status = row.status { return .replay(status: status, body: row.body ?? Data()) }
        if let lockedUntil = row.lockedUntil, lockedUntil >= now { return .held(until: lockedUntil) }
        row.owner = owner
        row.lockedUntil = until
        keys[id] = row
        return .resume(resourceId: row.resourceId)
    }

    /// Records what `owner` created under `key`; false when it no longer owns the key.
    @discardableResult
    mutating func link(tenant: UUID, key: String, owner: String, resourceId: String) -> Bool {
        let id = InMemoryPaymentRepository.KeyID(tenant: tenant, key: key)
        guard let row = keys[id], row.owner == owner, row.status == nil else { return false }
        keys[id]?.resourceId = resourceId
        return true
    }

    /// Stores `owner`'s response for `key`; false when it no longer owns the key.
    @discardableResult
    mutating func finish(tenant: UUID, key: String, owner: String, status: Int, body: Data) -> Bool {
        let id = InMemoryPaymentRepository.KeyID(tenant: tenant, key: key)
        guard let row = keys[id], row.owner == owner, row.status == nil else { return false }
        keys[id]?.status = status
        keys[id]?.body = body
        keys[id]?.lockedUntil = nil
        return true
    }
}
