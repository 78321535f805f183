import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// Every stored-credential state against every event: pending → active/failed/revoked/expired, and nothing back.
struct StoredCredentialMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let t1 = Date(timeIntervalSince1970: 1_800_000_060)
    let tenant = UUID()
    let account = UUID()

    static let states: [StoredPaymentMethod.Status] = [.pending, .active, .revoked, .failed, .expired]

    func credential(_ status: StoredPaymentMethod.Status) -> StoredPaymentMethod {
        var c = StoredPaymentMethod(
            id: "pm_1", tenantId: tenant, customerId: "c", accountId: account, pluginId: "antom", kind: "card",
            correlationId: "pm_1", createdAt: t0)
        c.status = status
        if status == .active { c.token = "tok-0" }
        return c
    }

    func report(_ kind: CredentialEvent.Kind) -> CredentialEvent {
        CredentialEvent(
            kind: kind, correlationId: "pm_1", credentialKind: "card", token: kind == .created ? "tok-1" : nil,
            paymentMethodType: "CARD", code: kind == .failed ? "VAULT_FAILED" : nil)
    }

    static let session = NextAction(type: "sdk", data: ["s": .string("1")], expiresAt: nil)

    var events: [StoredCredentialMachine.Event] {
        [CredentialEvent.Kind.created, .revoked, .failed, .pending].map { .providerReported(report($0)) } + [
            .merchantRevoked(provider: nil), .merchantRevoked(provider: RevokeCredentialResult(status: .revoked)),
            .abandoned(sessionEnded: true), .abandoned(sessionEnded: false),
            .sessionRequested(Outcome(kind: .pending, nextAction: Self.session)),
            .sessionRequested(.notSent("down")), .sessionRequested(.declined(code: "NO", message: "no")),
            .sessionRequested(.unknown("timeout")),
        ]
    }

    /// The status each state takes on each event, written out by hand (nil: refused, nothing changes).
    func expected(_ state: StoredPaymentMethod.Status, _ event: StoredCredentialMachine.Event)
        -> StoredPaymentMethod.Status?
    {
        switch (state, event) {
        case (.pending, .providerReported(let r)) where r.kind == .created: return .active
        case (.expired, .providerReported(let r)) where r.kind == .created: return .active
        case (.pending, .providerReported(let r)) where r.kind == .failed: return .failed
        case (.pending, .providerReported(let r)) where r.kind == .revoked: return .revoked
        case (.active, .providerReported(let r)) where r.kind == .revoked: return .revoked
        case (.expired, .providerReported(let r)) where r.kind == .revoked: return .revoked
        case (.revoked, .merchantRevoked): return nil
        case (_, .merchantRevoked): return .revoked
        case (.pending, .abandoned): return .expired
        case (.pending, .sessionRequested(let o)):
            switch o.kind {
            case .notSent, .declined: return .failed
            case .pending: return .pending
            default: return o.code == nil ? nil : .pending
            }
        default: return nil
        }
    }

    @Test func everyStateAgainstEveryEvent() {
        for state in Self.states {
            for event in events {
                let before = credential(state)
                var machine = StoredCredentialMachine(credential: before)
                let actions = machine.handle(event, at: t1)
                let after = machine.credential
                guard let status = expected(state, event) else {
                    #expect(after == before, "\(state) refused \(event)")
                    #expect(actions.isEmpty, "\(state) × \(event)")
                    continue
                }
                #expect(after.status == status, "\(state) × \(event)")
                #expect(after.updatedAt == t1, "\(state) × \(event)")
                #expect(actions.contains(.announce(status)) == (status != state), "\(state) × \(event)")
                if status != .pending { #expect(after.session == nil, "\(state) × \(event)") }
            }
        }
    }

    @Test func aRevokedOrFailedCredentialNeverBecomesUsableAgain() {
        for state in [StoredPaymentMethod.Status.revoked, .failed] {
            var c = credential(state)
            for event in events { _ = StoredCredentialMachine.apply(event, to: &c, at: t1) }
            // Only the merchant's revocation moves a failed one, and only to revoked.
            #expect(c.status == .revoked)
            #expect(!c.isUsable(at: t1))
        }
    }

    @Test func theMerchantsRevocationRecordsWhatTheProviderDid() {
        var c = credential(.active)
        let actions = StoredCredentialMachine.apply(
            .merchantRevoked(provider: RevokeCredentialResult(status: .notSupported)), to: &c, at: t1)
        #expect(actions == [.announce(.revoked)])
        #expect(c.failureCode == "revoked_by_merchant")
        #expect(c.failureMessage == PaymentService.revocationMessage(RevokeCredentialResult(status: .notSupported)))
        #expect(StoredCredentialMachine.apply(.merchantRevoked(provider: nil), to: &c, at: t1).isEmpty)
    }

    @Test func aVaultingSessionAnswer() {
        var live = credential(.pending)
        #expect(
            StoredCredentialMachine.apply(
                .sessionRequested(Outcome(kind: .pending, nextAction: Self.session)), to: &live, at: t1
            ).isEmpty)
        #expect(live.status == .pending)
        #expect(live.session == Self.session)
        // The session exists now: a repeated answer is refused.
        #expect(StoredCredentialMachine.apply(.sessionRequested(.notSent("down")), to: &live, at: t1).isEmpty)
        #expect(live.status == .pending)

        var unreachable = credential(.pending)
        let actions = StoredCredentialMachine.apply(.sessionRequested(.notSent("down")), to: &unreachable, at: t1)
        #expect(actions == [.announce(.failed), .reportUnreachable])
        #expect(unreachable.failureCode == "not_sent")

        var declined = credential(.pending)
        _ = StoredCredentialMachine.apply(.sessionRequested(Outcome(kind: .declined)), to: &declined, at: t1)
        #expect(declined.failureCode == "declined")

        var unknown = credential(.pending)
        _ = StoredCredentialMachine.apply(.sessionRequested(.unknown("timeout")), to: &unknown, at: t1)
        #expect(unknown.status == .pending)
        #expect(unknown.failureCode == "unknown")
    }

    @Test func anAbandonedCredentialSaysWhy() {
        var ended = credential(.pending)
        ended.session = Self.session
        _ = StoredCredentialMachine.apply(.abandoned(sessionEnded: true), to: &ended, at: t1)
        #expect(ended.failureCode == "session_expired")
        #expect(ended.session == nil)
        var left = credential(.pending)
        _ = StoredCredentialMachine.apply(.abandoned(sessionEnded: false), to: &left, at: t1)
        #expect(left.failureCode == "abandoned")
    }

    @Test func aTokenReportKeepsTheProvidersDetails() {
        var c = credential(.pending)
        #expect(
            StoredCredentialMachine.apply(.providerReported(report(.created)), to: &c, at: t1) == [.announce(.active)])
        #expect(c.token == "tok-1")
        #expect(c.paymentMethodType == "CARD")
        #expect(c.isUsable(at: t1))
        // An active credential ignores a failure report and another token.
        #expect(StoredCredentialMachine.apply(.providerReported(report(.failed)), to: &c, at: t1).isEmpty)
        #expect(c.status == .active)
    }
}
