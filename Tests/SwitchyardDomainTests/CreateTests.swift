import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Creating a payment: each provider answer leads to its status, with exactly one provider call.
struct CreateTests {
    @Test func succeededAuthorizeCapturesTheWholeAmount() async throws {
        let world = DomainWorld()
        let record = try await world.create(.succeeded("psp-1"))
        #expect(record.payment.status == .succeeded)
        #expect(record.payment.amountCaptured == 1_000)
        #expect(record.payment.providerAccountId == world.accounts[0])
        #expect(record.attempts.map(\.outcome) == [.succeeded])
        #expect(record.attempts.first?.providerPaymentId == "psp-1")
        #expect(world.gateway.calls(.authorize).map(\.accountId) == [world.accounts[0]])
        // The store announced the payment's creation and its success.
        #expect(
            world.payments.statusChanges.filter { $0.id == record.payment.id }.map(\.to) == ["processing", "succeeded"])
    }

    @Test func manualCaptureStopsAtAuthorized() async throws {
        let world = DomainWorld()
        let record = try await world.create(.authorized(), try world.request(capture: .manual))
        #expect(record.payment.status == .authorized)
        #expect(record.payment.amountCaptured == 0)
    }

    @Test func declineFailsThePaymentWithoutFailover() async throws {
        let world = DomainWorld()
        let record = try await world.create(.declined(code: "insufficient_funds", message: "no money"))
        #expect(record.payment.status == .failed)
        #expect(record.payment.failureCode == "insufficient_funds")
        #expect(world.gateway.calls(.authorize).count == 1)
    }

    @Test func pendingWithAnActionWaitsForTheCustomer() async throws {
        let world = DomainWorld()
        let action = NextAction(type: "redirect", data: ["url": .string("https://pay.invalid/x")])
        let record = try await world.create(Outcome(kind: .pending, providerPaymentId: "p", nextAction: action))
        #expect(record.payment.status == .requiresAction)
        #expect(record.payment.nextAction == action)
        #expect(try await world.service.get(tenant: world.tenant, paymentId: record.payment.id) == record)
    }

    @Test func anotherTenantCannotSeeThePayment() async throws {
        let world = DomainWorld()
        let record = try await world.create(.succeeded())
        await #expect(throws: CoreError.self) {
            _ = try await world.service.get(tenant: UUID(), paymentId: record.payment.id)
        }
    }
}
