import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A verified notification is applied to the payment its attempt names, judged on the locked row.
struct NotificationApplyTests {
    func notify(_ world: DomainWorld, reference: String?, _ outcome: Outcome) async throws -> NotificationAnswer {
        world.gateway.scriptNotification(
            NotificationEvent(subject: .payment, reference: reference, providerPaymentId: nil, outcome: outcome))
        return try await world.service.handleNotification(
            accountId: world.accounts[0],
            request: NotificationRequest(method: "POST", path: "/n", headers: [], body: Data(UUID().uuidString.utf8)),
            log: world.notifications)
    }

    @Test func aNotificationSettlesTheWaitingPayment() async throws {
        let world = DomainWorld()
        let record = try await world.create(Outcome(kind: .pending, providerPaymentId: "psp-1"))
        let answer = try await notify(world, reference: record.lastAttempt?.id, .succeeded("psp-1"))
        guard case .acknowledged = answer else { Issue.record("answered \(answer)"); return }
        let settled = try await world.service.get(tenant: world.tenant, paymentId: record.payment.id).payment
        #expect(settled.status == .succeeded)
    }

    @Test func aPaymentOfAnotherTenantIsKeptAsUnknownAndLeftAlone() async throws {
        let world = DomainWorld()
        let record = try await world.create(Outcome(kind: .pending, providerPaymentId: "psp-2"))
        // The account now belongs to another tenant: its attempt is found, the payment is not.
        var account = try #require(try await world.configuration.account(id: world.accounts[0]))
        account.tenantId = UUID()
        world.configuration.put(account)
        let answer = try await notify(world, reference: record.lastAttempt?.id, .succeeded("psp-2"))
        guard case .acknowledged = answer else { Issue.record("answered \(answer)"); return }
        let kept = try await world.service.get(tenant: world.tenant, paymentId: record.payment.id).payment
        #expect(kept.status == record.payment.status)
    }
}
