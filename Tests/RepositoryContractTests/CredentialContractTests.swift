import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both credential repositories promise.
struct CredentialContractTests {
    func credential(_ s: ContractSubject, _ id: String, correlation: String, origin: String? = nil)
        -> StoredPaymentMethod
    {
        StoredPaymentMethod(
            id: id, tenantId: s.tenant, customerId: "cus_1", accountId: s.account, pluginId: "scripted",
            kind: "wallet_agreement", correlationId: correlation, originPaymentId: origin, createdAt: s.clock.date)
    }

    @Test(arguments: Backend.allCases)
    func lookupsUpdatesAndListsWithoutTokens(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        var active = credential(s, "pm_1", correlation: "as_1")
        active.status = .active
        active.token = "tok-1"
        try await s.credentials.saveCredential(active)
        s.clock.advance(1)
        try await s.credentials.saveCredential(credential(s, "pm_2", correlation: "as_2"))
        await #expect(throws: (any Error).self) {
            try await s.credentials.saveCredential(credential(s, "pm_3", correlation: "as_1"))
        }
        #expect(try await s.credentials.credential(tenant: s.tenant, id: "pm_1")?.token == "tok-1")
        #expect(try await s.credentials.credential(tenant: UUID(), id: "pm_1") == nil)
        #expect(
            try await s.credentials.credential(tenant: s.tenant, accountId: s.account, correlationId: "as_2")?.id
                == "pm_2")
        #expect(
            try await s.credentials.credential(tenant: s.tenant, accountId: s.account, token: "tok-1")?.id == "pm_1")
        let listed = try await s.credentials.credentials(tenant: s.tenant, customerId: "cus_1")
        #expect(listed.map(\.id) == ["pm_2", "pm_1"])
        #expect(listed.allSatisfy { $0.token == nil })
        // An update that declines changes nothing; one that accepts is stored.
        let unchanged = try await s.credentials.updateCredential(tenant: s.tenant, id: "pm_2") {
            $0.status = .failed
            return false
        }
        #expect(unchanged?.status == .failed)
        #expect(try await s.credentials.credential(tenant: s.tenant, id: "pm_2")?.status == .pending)
        _ = try await s.credentials.updateCredential(tenant: s.tenant, id: "pm_2") {
            $0.status = .expired
            return true
        }
        #expect(try await s.credentials.credential(tenant: s.tenant, id: "pm_2")?.status == .expired)
        #expect(try await s.credentials.updateCredential(tenant: s.tenant, id: "pm_9") { _ in true } == nil)
    }

    @Test(arguments: Backend.allCases)
    func stalePendingCredentials(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        var expiring = credential(s, "pm_session", correlation: "as_1")
        expiring.session = NextAction(type: "app", data: [:], expiresAt: s.clock.date.addingTimeInterval(60))
        try await s.credentials.saveCredential(expiring)
        // Asked for by a payment that went on at another account.
        var moved = s.payment("pay_1", status: .succeeded)
        moved.providerAccountId = UUID()
        try await s.payments.commit(PaymentChanges(payment: moved))
        try await s.credentials.saveCredential(credential(s, "pm_left", correlation: "as_2", origin: "pay_1"))
        // Asked for by a payment still at this account.
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_2", status: .succeeded)))
        try await s.credentials.saveCredential(credential(s, "pm_kept", correlation: "as_3", origin: "pay_2"))
        var stale = try await s.credentials.stalePendingCredentials(now: s.clock.date, limit: 10)
        #expect(stale.map(\.id) == ["pm_left"])
        s.clock.advance(60)
        stale = try await s.credentials.stalePendingCredentials(now: s.clock.date, limit: 10)
        #expect(Set(stale.map(\.id)) == ["pm_session", "pm_left"])
    }
}
