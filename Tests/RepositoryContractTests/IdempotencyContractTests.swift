import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both repositories promise of `Idempotency-Key`s.
struct IdempotencyContractTests {
    func claim(_ s: ContractSubject, hash: String = "h", owner: String) -> IdempotencyScope {
        IdempotencyScope(tenant: s.tenant, key: "POST /v1/payments k1", requestHash: hash, owner: owner, lease: 60)
    }

    @Test(arguments: Backend.allCases)
    func aHeldKeyStoresNothingAndIsResumedAfterItsLease(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let first = claim(s, owner: "a")
        #expect(try await s.payments.begin(PaymentChanges(payment: s.payment("pay_1")), claim: first) == .proceed)
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1") != nil)
        let held = try await s.payments.begin(PaymentChanges(payment: s.payment("pay_2")), claim: claim(s, owner: "b"))
        #expect(held == .held(until: s.clock.date.addingTimeInterval(60)))
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_2") == nil)
        let other = try await s.payments.begin(
            PaymentChanges(payment: s.payment("pay_3")), claim: claim(s, hash: "other", owner: "c"))
        #expect(other == .mismatch)
        s.clock.advance(61)
        let taken = claim(s, owner: "d")
        let resumed = try await s.payments.begin(PaymentChanges(payment: s.payment("pay_4")), claim: taken)
        #expect(resumed == .resume(resourceId: "pay_1"))
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_4") == nil)
    }

    @Test(arguments: Backend.allCases)
    func aCreateAnswersItsKeyInItsLastTransaction(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let configuration = InMemoryConfiguration()
        configuration.put(
            ProviderAccount(
                id: s.account, tenantId: s.tenant, name: "a", pluginId: "scripted", environment: "test",
                baseURL: "https://provider.invalid", credentials: [:], secretFields: [], enabled: true,
                createdAt: s.clock.date))
        configuration.setRules(
            [RoutingRule(id: UUID(), name: "all", match: .init(), accounts: [s.account])], tenant: s.tenant)
        let gateway = ScriptedGateway()
        gateway.register(ScriptedGateway.manifest("scripted"))
        gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp"))
        let service = PaymentService(
            payments: s.payments, configuration: configuration, gateway: gateway, credentials: s.credentials,
            disputes: s.disputes,
            ids: TestIdentifiers.random, clock: s.clock.now,
            logger: Logger(label: "contract", factory: { _ in SwiftLogNoOpLogHandler() }))
        let request = try NewPayment(amount: 100, currency: "EUR", country: "FR", method: "card", reference: "r")
        func create(_ claim: IdempotencyScope) async throws -> IdempotentRun<PaymentRecord> {
            await service.create(tenant: s.tenant, request, idempotency: claim)
        }
        guard case .success(let record)? = try await create(claim(s, owner: "a")).answeredWithWork else {
            Issue.record("the create did not answer its key in its last transaction")
            return
        }
        guard let replayed = try await create(claim(s, owner: "b")).turnedAway else {
            Issue.record("a second create under the key was not interrupted")
            return
        }
        #expect(replayed == .replay(.createdPayment(record.payment.id)))
        guard let other = try await create(claim(s, hash: "x", owner: "c")).turnedAway else {
            Issue.record("a create with another body under the key was not interrupted")
            return
        }
        #expect(other == .mismatch)
        #expect(gateway.calls(.authorize).count == 1)
    }

    @Test(arguments: Backend.allCases)
    func anAnswerIsStoredAsItsOutcomeAndReplayedAsStored(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let claims = s.claims
        let outcomes: [IdempotentOutcome] = [
            .createdPayment("pay_1"),
            .resource(IdempotentResource(kind: .refund, id: "re_1", created: true)),
            .resource(IdempotentResource(kind: .paymentMethod, id: "pm_1", parent: "cus_1", created: true)),
            .resource(IdempotentResource(kind: .payment, id: "pay_2", created: false)),
            .failure(CoreError(.refundExceedsCaptured, "too much")),
            .failure(CoreError(.returnURLRequired, "no URL")),
            .failure(CoreError(.invalidMetadata, "too long", param: "metadata.order")),
            .failure(
                CoreError(.providerDeclined, "05: declined", declineCode: "do_not_honor", providerCode: "05")),
        ]
        for (index, outcome) in outcomes.enumerated() {
            let key = "POST /v1/payments k\(index)"
            #expect(
                try await claims.claimIdempotent(tenant: s.tenant, key: key, requestHash: "h", owner: "a", lease: 60)
                    == .proceed)
            #expect(try await claims.finishIdempotent(tenant: s.tenant, key: key, owner: "a", outcome: outcome))
            #expect(
                try await claims.claimIdempotent(tenant: s.tenant, key: key, requestHash: "h", owner: "b", lease: 60)
                    == .replay(outcome))
        }
    }
}
