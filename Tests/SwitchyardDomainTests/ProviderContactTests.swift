import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// An operation on a payment says whether its provider may have acted, which decides whether a failed
/// request's `Idempotency-Key` keeps the payment linked (the retry answers it) or is forgotten (the retry runs).
struct ProviderContactTests {
    func authorized(_ world: DomainWorld) async throws -> String {
        try await world.create(.authorized(), try world.request(capture: .manual)).payment.id
    }

    @Test func aFailureAfterTheProviderWasCalledSaysItMayHaveActed() async throws {
        let world = DomainWorld()
        let id = try await authorized(world)
        world.gateway.script(.capture, .succeeded())
        world.payments.outage.dropNextTransition(.beforeCommit)
        var contact = ProviderContact.none
        await #expect(throws: (any Error).self) {
            _ = try await world.service.capture(tenant: world.tenant, paymentId: id, amount: nil, contact: &contact)
        }
        #expect(contact == .possible(resourceId: id))
        #expect(world.gateway.calls(.capture).count == 1)
    }

    @Test func nothingSentOrNothingTriedIsNoContact() async throws {
        let world = DomainWorld()
        let id = try await authorized(world)
        world.gateway.script(.capture, .notSent("connection refused"))
        var contact = ProviderContact.none
        await expectCoreError(.providerUnreachable) {
            _ = try await world.service.capture(tenant: world.tenant, paymentId: id, amount: nil, contact: &contact)
        }
        #expect(contact == .none)

        // Refused before the provider: an amount over the authorisation.
        await expectCoreError(.invalidAmount) {
            _ = try await world.service.capture(
                tenant: world.tenant, paymentId: id, amount: 1_000_000, contact: &contact)
        }
        #expect(contact == .none)
    }

    @Test func aCancelSaysItToo() async throws {
        let world = DomainWorld()
        let id = try await authorized(world)
        world.gateway.script(.void, .succeeded())
        var contact = ProviderContact.none
        _ = try await world.service.cancel(tenant: world.tenant, paymentId: id, contact: &contact)
        #expect(contact == .possible(resourceId: id))
    }
}
