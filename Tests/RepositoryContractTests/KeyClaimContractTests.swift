import Foundation
import SwitchyardCore
import Testing

/// What both repositories promise of `Idempotency-Key` claims made on their own (the middleware's claims
/// for every mutating route but a payment create): a lease, its owner's link and answer, and its release.
struct KeyClaimContractTests {
    static let key = "POST /v1/payments/{id}/refunds id=pay_1 k1"

    func claims(_ s: ContractSubject) throws -> any IdempotencyRepository {
        s.claims
    }

    @Test(arguments: Backend.allCases)
    func aKeyIsHeldLinkedReleasedResumedAndAnswered(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let claims = try claims(s)
        func claim(_ owner: String, hash: String = "h") async throws -> IdempotencyClaim {
            try await claims.claimIdempotent(
                tenant: s.tenant, key: Self.key, requestHash: hash, owner: owner, lease: 30)
        }
        #expect(try await claim("a") == .proceed)
        #expect(try await claim("b") == .held(until: s.clock.date.addingTimeInterval(30)))
        #expect(try await claim("b", hash: "other") == .mismatch)
        #expect(try await !claims.linkIdempotent(tenant: s.tenant, key: Self.key, owner: "b", resourceId: "re_1"))
        #expect(try await claims.linkIdempotent(tenant: s.tenant, key: Self.key, owner: "a", resourceId: "re_1"))
        // Something was created under the key: releasing it ends the lease, and the next retry resumes.
        try await claims.releaseIdempotent(tenant: s.tenant, key: Self.key, owner: "a")
        #expect(try await claim("c") == .resume(resourceId: "re_1"))
        let answer = IdempotentOutcome.resource(IdempotentResource(kind: .refund, id: "re_1", created: true))
        #expect(try await !claims.finishIdempotent(tenant: s.tenant, key: Self.key, owner: "a", outcome: answer))
        #expect(try await claims.finishIdempotent(tenant: s.tenant, key: Self.key, owner: "c", outcome: answer))
        #expect(try await claim("d") == .replay(answer))
    }

    @Test(arguments: Backend.allCases)
    func aReleasedKeyUnderWhichNothingWasCreatedIsForgotten(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let claims = try claims(s)
        #expect(
            try await claims.claimIdempotent(tenant: s.tenant, key: Self.key, requestHash: "h", owner: "a", lease: 30)
                == .proceed)
        try await claims.releaseIdempotent(tenant: s.tenant, key: Self.key, owner: "b")
        #expect(
            try await claims.claimIdempotent(tenant: s.tenant, key: Self.key, requestHash: "x", owner: "b", lease: 30)
                == .mismatch, "another owner's release leaves the claim")
        try await claims.releaseIdempotent(tenant: s.tenant, key: Self.key, owner: "a")
        #expect(
            try await claims.claimIdempotent(tenant: s.tenant, key: Self.key, requestHash: "x", owner: "b", lease: 30)
                == .proceed)
    }
}
