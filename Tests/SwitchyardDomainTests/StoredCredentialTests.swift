import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// Saving a payment method with a payment, paying again with it, and revoking it.
struct StoredCredentialTests {
    func activeCredential(_ world: DomainWorld, at account: UUID, customer: String = "cus_1") async throws -> String {
        var credential = StoredPaymentMethod(
            id: "pm_active", tenantId: world.tenant, customerId: customer, accountId: account, pluginId: "scripted",
            kind: "wallet_agreement", correlationId: "as_1", createdAt: world.clock.date)
        credential.status = .active
        credential.token = "agreement-token"
        credential.paymentMethodType = "CARD"
        try await world.credentials.saveCredential(credential)
        return credential.id
    }

    @Test func followUpPaysAtTheCredentialsAccountOnly() async throws {
        let world = DomainWorld()
        let id = try await activeCredential(world, at: world.accounts[1])
        world.gateway.script(.authorize, at: world.accounts[1], .notSent("down"))
        world.gateway.script(.authorize, at: world.accounts[0], .succeeded())
        let record = try await world.service.create(
            tenant: world.tenant, try world.request(customer: "cus_1", paymentMethodId: id))
        // A token is valid only where it was issued: no failover to the first account.
        #expect(record.payment.status == .failed)
        #expect(record.payment.paymentMethodId == id)
        let calls = world.gateway.calls(.authorize)
        #expect(calls.map(\.accountId) == [world.accounts[1]])
        #expect(calls.map(\.storedCredentialId) == [id])
    }

    @Test func anotherCustomersCredentialCannotPay() async throws {
        let world = DomainWorld()
        let id = try await activeCredential(world, at: world.accounts[0])
        await expectCoreError(.unknownPaymentMethod) {
            _ = try await world.service.create(
                tenant: world.tenant, try world.request(customer: "cus_2", paymentMethodId: id))
        }
        #expect(world.gateway.calls.isEmpty)
    }

    @Test func aRevokedCredentialCannotPayAgain() async throws {
        let world = DomainWorld()
        let id = try await activeCredential(world, at: world.accounts[0])
        world.gateway.scriptRevocation(RevokeCredentialResult(status: .revoked))
        let revoked = try await world.service.revokePaymentMethod(tenant: world.tenant, customerId: "cus_1", id: id)
        #expect(revoked.status == .revoked)
        #expect(revoked.token == nil)
        // Revoking again asks the provider nothing.
        _ = try await world.service.revokePaymentMethod(tenant: world.tenant, customerId: "cus_1", id: id)
        #expect(world.gateway.calls(.revokeCredential).count == 1)
        await expectCoreError(.paymentMethodUnusable) {
            _ = try await world.service.create(
                tenant: world.tenant, try world.request(customer: "cus_1", paymentMethodId: id))
        }
        #expect(world.gateway.calls(.authorize).isEmpty)
    }

    @Test func aCredentialLeftBehindByFailoverIsExpiredBySweep() async throws {
        let world = DomainWorld()
        world.gateway.script(.authorize, at: world.accounts[0], .notSent("down"))
        world.gateway.script(.authorize, at: world.accounts[1], .succeeded())
        let record = try await world.service.create(
            tenant: world.tenant, try world.request(customer: "cus_1", save: true))
        #expect(record.payment.providerAccountId == world.accounts[1])
        let setups = world.gateway.calls(.authorize).map(\.setupCorrelationId)
        #expect(setups.count == 2 && setups.allSatisfy { $0 != nil })
        var saved = try await world.service.paymentMethods(tenant: world.tenant, customerId: "cus_1")
        #expect(saved.map(\.status) == [.pending, .pending])
        _ = await world.service.sweepSessions(limit: 10)
        saved = try await world.service.paymentMethods(tenant: world.tenant, customerId: "cus_1")
        let byAccount = Dictionary(uniqueKeysWithValues: saved.map { ($0.accountId, $0) })
        #expect(byAccount[world.accounts[0]]?.status == .expired)
        #expect(byAccount[world.accounts[0]]?.failureCode == "abandoned")
        #expect(byAccount[world.accounts[1]]?.status == .pending)
        #expect(record.payment.savedPaymentMethodId == byAccount[world.accounts[1]]?.id)
    }
}
