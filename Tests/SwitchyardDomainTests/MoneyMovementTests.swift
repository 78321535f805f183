import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Captures, voids and refunds: each one provider call, refunds never past what was captured.
struct MoneyMovementTests {
    @Test func refundsStayWithinTheRemainder() async throws {
        let world = DomainWorld()
        let id = try await world.create(.succeeded()).payment.id
        world.gateway.script(.refund, .succeeded(), .succeeded())
        let first = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 400, reason: nil)
        #expect(first.status == .succeeded)
        // No amount: the remainder.
        let rest = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: nil, reason: nil)
        #expect(rest.amount == 600)
        #expect(try await world.service.get(tenant: world.tenant, paymentId: id).payment.amountRefunded == 1_000)
        await expectCoreError(.refundExceedsCaptured) {
            _ = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 1, reason: nil)
        }
        #expect(world.gateway.calls(.refund).map(\.amount) == [400, 600])
    }

    @Test func openRefundsReserveTheirAmountAndFailedOnesFreeIt() async throws {
        let world = DomainWorld()
        let id = try await world.create(.succeeded()).payment.id
        world.gateway.script(.refund, Outcome(kind: .pending), .declined(code: "refused", message: "no"))
        let pending = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 600, reason: nil)
        #expect(pending.status == .pending)
        await expectCoreError(.refundExceedsCaptured) {
            _ = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 500, reason: nil)
        }
        let declined = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 400, reason: nil)
        #expect(declined.status == .failed)
        #expect(declined.failureCode == "refused")
        #expect(try await world.service.get(tenant: world.tenant, paymentId: id).payment.amountRefunded == 0)
        world.gateway.script(.refund, .succeeded())
        #expect(
            try await world.service.refund(tenant: world.tenant, paymentId: id, amount: 400, reason: nil).status
                == .succeeded)
        #expect(world.gateway.calls(.refund).count == 3)
    }

    @Test func aPaymentNotSucceededCannotBeRefunded() async throws {
        let world = DomainWorld()
        let id = try await world.create(.authorized(), try world.request(capture: .manual)).payment.id
        await expectCoreError(.invalidState) {
            _ = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: nil, reason: nil)
        }
        #expect(world.gateway.calls(.refund).isEmpty)
    }

    @Test func partialCaptureOfAnAuthorization() async throws {
        let world = DomainWorld()
        let id = try await world.create(.authorized(), try world.request(capture: .manual)).payment.id
        world.gateway.script(.capture, .succeeded())
        let record = try await world.service.capture(tenant: world.tenant, paymentId: id, amount: 300)
        #expect(record.payment.status == .succeeded)
        #expect(record.payment.amountCaptured == 300)
        #expect(record.operations.map(\.kind) == [.capture])
        #expect(record.operations.first?.outcome == .succeeded)
        #expect(world.gateway.calls(.capture).map(\.amount) == [300])
    }

    @Test func aDeclinedCaptureLeavesTheAuthorization() async throws {
        let world = DomainWorld()
        let id = try await world.create(.authorized(), try world.request(capture: .manual)).payment.id
        world.gateway.script(.capture, .declined(code: "expired", message: "authorization expired"))
        await expectCoreError(.providerDeclined) {
            _ = try await world.service.capture(tenant: world.tenant, paymentId: id, amount: nil)
        }
        let payment = try await world.service.get(tenant: world.tenant, paymentId: id).payment
        #expect(payment.status == .authorized)
        #expect(payment.amountCaptured == 0)
    }

    @Test func voidCancelsAnAuthorizationOnce() async throws {
        let world = DomainWorld()
        let id = try await world.create(.authorized(), try world.request(capture: .manual)).payment.id
        world.gateway.script(.void, Outcome(kind: .canceled))
        let record = try await world.service.cancel(tenant: world.tenant, paymentId: id)
        #expect(record.payment.status == .canceled)
        await expectCoreError(.invalidState) {
            _ = try await world.service.cancel(tenant: world.tenant, paymentId: id)
        }
        #expect(world.gateway.calls(.void).count == 1)
    }

    @Test func anUnknownPaymentIsSyncedBeforeMoneyMoves() async throws {
        let world = DomainWorld()
        let id = try await world.create(.unknown("timeout")).payment.id
        world.gateway.script(.sync, .unknown("still"))
        await expectCoreError(.outcomeUnknown) {
            _ = try await world.service.refund(tenant: world.tenant, paymentId: id, amount: nil, reason: nil)
        }
        #expect(world.gateway.calls(.refund).isEmpty)
        #expect(world.gateway.calls(.sync).count == 1)
    }
}
