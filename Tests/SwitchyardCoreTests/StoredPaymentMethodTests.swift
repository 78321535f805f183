import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// The stored credential's life: pending → active → revoked, and nothing back.
struct StoredPaymentMethodTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func pending(kind: String = "card") -> StoredPaymentMethod {
        StoredPaymentMethod(
            id: "pm_1", tenantId: UUID(), customerId: "c", accountId: UUID(), pluginId: "antom", kind: kind,
            correlationId: "pm_1", createdAt: now)
    }

    func event(_ kind: CredentialEvent.Kind, token: String? = "tok") -> CredentialEvent {
        CredentialEvent(
            kind: kind, correlationId: "pm_1", credentialKind: "card", token: token, paymentMethodType: "CARD",
            display: CredentialDisplay(brand: "VISA", last4: "0768", expiryMonth: 12, expiryYear: 2030))
    }

    @Test func createdMakesItUsableWithItsDisplay() {
        var credential = pending()
        credential.apply(event(.created), at: now)
        #expect(credential.status == .active)
        #expect(credential.token == "tok")
        #expect(credential.display?.last4 == "0768")
        #expect(credential.isUsable(at: now))
        #expect(credential.paymentMethodName == "card")
    }

    @Test func revokedNeverComesBack() {
        var credential = pending()
        credential.apply(event(.created), at: now)
        credential.apply(event(.revoked), at: now)
        #expect(credential.status == .revoked)
        credential.apply(event(.created, token: "tok-2"), at: now)
        #expect(credential.status == .revoked)
        #expect(!credential.isUsable(at: now))
    }

    @Test func failedStaysFailedAndActiveIgnoresFailure() {
        var failed = pending()
        failed.apply(event(.failed, token: nil), at: now)
        #expect(failed.status == .failed)
        failed.apply(event(.created), at: now)
        #expect(failed.status == .failed)

        var active = pending()
        active.apply(event(.created), at: now)
        active.apply(event(.failed, token: nil), at: now)
        #expect(active.status == .active)
    }

    @Test func anExpiredTokenCannotPay() {
        var credential = pending()
        var created = event(.created)
        created.expiresAt = now.addingTimeInterval(-1)
        credential.apply(created, at: now)
        #expect(credential.status == .active)
        #expect(!credential.isUsable(at: now))
    }

    @Test func aWalletAgreementPaysAsItsWallet() {
        var credential = pending(kind: "wallet_agreement")
        credential.paymentMethodType = "GCASH"
        #expect(credential.paymentMethodName == "gcash")
    }
}
