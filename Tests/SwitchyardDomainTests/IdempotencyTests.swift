import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A create under an `Idempotency-Key`: answered once, replayed after, refused for another body, held
/// while its owner's lease runs, resumed after it.
struct IdempotencyTests {
    func claim(_ world: DomainWorld, key: String = "key-1", hash: String = "h1", owner: String) -> IdempotentCreate {
        IdempotentCreate(
            tenant: world.tenant, key: key, requestHash: hash, owner: owner, lease: 60,
            respond: { result in
                switch result {
                case .success(let record): return (201, Data(record.payment.id.utf8))
                case .failure: return (422, Data("refused".utf8))
                }
            })
    }

    func create(_ world: DomainWorld, under claim: IdempotentCreate) async throws -> PaymentRecord {
        let request = try world.request()
        return try await IdempotentCreate.$current.withValue(claim) {
            try await world.service.create(tenant: world.tenant, request)
        }
    }

    /// The claim a create under `claim` was interrupted with, failing when it was not interrupted.
    func interruption(_ world: DomainWorld, under claim: IdempotentCreate) async throws -> IdempotencyClaim {
        do {
            let record = try await create(world, under: claim)
            Issue.record("created \(record.payment.id) instead of being interrupted")
            return .proceed
        } catch let interruption as IdempotencyInterruption {
            return interruption.claim
        }
    }

    @Test func aCompletedCreateIsReplayedNotRepeated() async throws {
        let world = DomainWorld()
        world.gateway.script(.authorize, .succeeded())
        let first = claim(world, owner: "a")
        let record = try await create(world, under: first)
        #expect(first.stage == .answered)
        let replayed = try await interruption(world, under: claim(world, owner: "b"))
        #expect(replayed == .replay(status: 201, body: Data(record.payment.id.utf8)))
        #expect(world.gateway.calls(.authorize).count == 1)
        #expect(
            try await world.payments.list(tenant: world.tenant, reference: nil, startingAfter: nil, limit: 10).count
                == 1)
    }

    @Test func anotherBodyUnderTheSameKeyIsRefused() async throws {
        let world = DomainWorld()
        world.gateway.script(.authorize, .succeeded())
        _ = try await create(world, under: claim(world, owner: "a"))
        #expect(try await interruption(world, under: claim(world, hash: "other", owner: "b")) == .mismatch)
        #expect(world.gateway.calls(.authorize).count == 1)
    }

    @Test func aKeyHeldByALiveRequestIsHeldThenResumedAfterItsLease() async throws {
        let world = DomainWorld()
        // A request that stored its payment under the key and then died before answering.
        let crashed = world.storedPayment("pay_crashed")
        let dead = claim(world, owner: "dead")
        #expect(try await world.payments.begin(PaymentChanges(payment: crashed), claim: dead) == .proceed)
        #expect(dead.stage == .claimed(.proceed))
        let held = try await interruption(world, under: claim(world, owner: "b"))
        #expect(held == .held(until: world.clock.date.addingTimeInterval(60)))
        world.clock.advance(61)
        let resumed = try await interruption(world, under: claim(world, owner: "c"))
        #expect(resumed == .resume(resourceId: "pay_crashed"))
        #expect(world.gateway.calls.isEmpty)
    }

    @Test func aKeyIsScopedToItsTenant() async throws {
        let world = DomainWorld()
        let other = UUID()
        #expect(try await world.payments.startIdempotent(tenant: world.tenant, key: "k", requestHash: "h") == .proceed)
        #expect(try await world.payments.startIdempotent(tenant: other, key: "k", requestHash: "x") == .proceed)
        #expect(
            try await world.payments.startIdempotent(tenant: world.tenant, key: "k", requestHash: "h") == .inProgress)
    }
}
