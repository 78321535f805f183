import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A refund under an `Idempotency-Key` passed explicitly: its id is recorded under the key in the
/// transaction that reserves it, before the provider is called.
struct IdempotentRefundTests {
    static let key = "POST /v1/payments/{id}/refunds refund-1"

    func scope(_ world: DomainWorld, owner: String) -> IdempotencyScope {
        IdempotencyScope(tenant: world.tenant, key: Self.key, requestHash: "h", owner: owner, lease: 60)
    }

    func claim(_ world: DomainWorld, owner: String) async throws -> IdempotencyClaim {
        try await world.payments.claimIdempotent(
            tenant: world.tenant, key: Self.key, requestHash: "h", owner: owner, lease: 60)
    }

    @Test func aRefundUnderAKeyRecordsItsIdForATakeover() async throws {
        let world = DomainWorld()
        let id = try await world.create(.succeeded()).payment.id
        #expect(try await claim(world, owner: "first") == .proceed)
        world.gateway.script(.refund, .succeeded())
        // The first request refunds, then dies before storing its answer.
        let refund = try await world.service.refund(
            tenant: world.tenant, paymentId: id, amount: 400, reason: nil, idempotency: scope(world, owner: "first"))
        world.clock.advance(61)
        #expect(try await claim(world, owner: "retry") == .resume(resourceId: refund.id))
        #expect(world.gateway.calls(.refund).count == 1)
    }

    @Test func aRefundWhoseKeyWasTakenOverReservesNothingAndNeverReachesTheProvider() async throws {
        let world = DomainWorld()
        let id = try await world.create(.succeeded()).payment.id
        #expect(try await claim(world, owner: "first") == .proceed)
        world.clock.advance(61)
        #expect(try await claim(world, owner: "retry") == .resume(resourceId: nil))
        world.gateway.script(.refund, .succeeded())
        await expectCoreError(.idempotencyInProgress) {
            _ = try await world.service.refund(
                tenant: world.tenant, paymentId: id, amount: 400, reason: nil,
                idempotency: scope(world, owner: "first"))
        }
        #expect(world.gateway.calls(.refund).isEmpty)
        #expect(try await world.service.get(tenant: world.tenant, paymentId: id).refunds.isEmpty)
    }

    @Test func aRefundUnderAnotherTenantsKeyIsRefused() async throws {
        let world = DomainWorld()
        let id = try await world.create(.succeeded()).payment.id
        var foreign = scope(world, owner: "first")
        foreign.tenant = UUID()
        await expectCoreError(.invalidRequest) {
            _ = try await world.service.refund(
                tenant: world.tenant, paymentId: id, amount: 400, reason: nil, idempotency: foreign)
        }
        #expect(world.gateway.calls(.refund).isEmpty)
    }
}
