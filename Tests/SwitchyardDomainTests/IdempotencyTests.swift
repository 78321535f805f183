import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A create under an `Idempotency-Key`: answered once, replayed after, refused for another body, held
/// while its owner's lease runs, resumed after it.
struct IdempotencyTests {
    func claim(_ world: DomainWorld, key: String = "key-1", hash: String = "h1", owner: String) -> IdempotencyScope {
        IdempotencyScope(tenant: world.tenant, key: key, requestHash: hash, owner: owner, lease: 60)
    }

    func create(_ world: DomainWorld, under claim: IdempotencyScope) async throws -> IdempotentRun<PaymentRecord> {
        await world.service.create(tenant: world.tenant, try world.request(), idempotency: claim)
    }

    /// The claim that turned a create under `claim` away, failing when it ran.
    func interruption(_ world: DomainWorld, under claim: IdempotencyScope) async throws -> IdempotencyClaim {
        let creation = try await create(world, under: claim)
        guard let claimed = creation.turnedAway else {
            Issue.record("\(creation) instead of being turned away")
            return .proceed
        }
        return claimed
    }

    @Test func aCompletedCreateIsReplayedNotRepeated() async throws {
        let world = DomainWorld()
        world.gateway.script(.authorize, .succeeded())
        let creation = try await create(world, under: claim(world, owner: "a"))
        guard case .success(let record)? = creation.answeredWithWork else {
            Issue.record("the create was not answered in its last transaction: \(creation)")
            return
        }
        let replayed = try await interruption(world, under: claim(world, owner: "b"))
        #expect(replayed == .replay(.createdPayment(record.payment.id)))
        #expect(world.gateway.calls(.authorize).count == 1)
        #expect(
            try await world.payments.records(tenant: world.tenant, reference: nil, startingAfter: nil, limit: 10).count
                == 1)
    }

    @Test func aCreateRefusedForMissingInputStoresTheErrorForItsKey() async throws {
        let world = DomainWorld()
        // Every candidate refuses: the payment fails for what the request lacks.
        let refusal = Outcome(kind: .notSent, resultCode: .returnURLRequired, message: "no URL")
        world.gateway.script(.authorize, refusal, refusal)
        let creation = try await create(world, under: claim(world, owner: "a"))
        guard case .failure(let error as CoreError)? = creation.answeredWithWork else {
            Issue.record("the refusal was not answered in the create's last transaction: \(creation)")
            return
        }
        #expect(error.code == .returnURLRequired)
        let replayed = try await interruption(world, under: claim(world, owner: "b"))
        #expect(replayed == .replay(.failure(CoreError(.returnURLRequired, "no URL"))))
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
        #expect(
            try await world.payments.begin(PaymentChanges(payment: crashed), claim: claim(world, owner: "dead"))
                == .proceed)
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
        func claim(_ tenant: UUID, _ hash: String) async throws -> IdempotencyClaim {
            try await world.payments.claimIdempotent(
                tenant: tenant, key: "k", requestHash: hash, owner: hash, lease: 60)
        }
        #expect(try await claim(world.tenant, "h") == .proceed)
        #expect(try await claim(other, "x") == .proceed)
        #expect(try await claim(world.tenant, "h") == .held(until: world.clock.date.addingTimeInterval(60)))
    }
}
