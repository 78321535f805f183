import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both repositories promise of `Idempotency-Key`s.
struct IdempotencyContractTests {
    func claim(_ s: ContractSubject, hash: String = "h", owner: String) -> IdempotentCreate {
        IdempotentCreate(
            tenant: s.tenant, key: "POST /v1/payments k1", requestHash: hash, owner: owner, lease: 60,
            respond: { _ in (201, Data("answer".utf8)) })
    }

    @Test(arguments: Backend.allCases)
    func aHeldKeyStoresNothingAndIsResumedAfterItsLease(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let first = claim(s, owner: "a")
        #expect(try await s.payments.begin(PaymentChanges(payment: s.payment("pay_1")), claim: first) == .proceed)
        #expect(first.stage == .claimed(.proceed))
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
        #expect(taken.stage == .unclaimed)
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
            ids: TestIdentifiers.random, clock: s.clock.now,
            logger: Logger(label: "contract", factory: { _ in SwiftLogNoOpLogHandler() }))
        let request = try NewPayment(amount: 100, currency: "EUR", country: "FR", method: "card", reference: "r")
        func create(_ claim: IdempotentCreate) async throws -> IdempotencyClaim? {
            do {
                _ = try await IdempotentCreate.$current.withValue(claim) {
                    try await service.create(tenant: s.tenant, request)
                }
                return nil
            } catch let interruption as IdempotencyInterruption {
                return interruption.claim
            }
        }
        let first = claim(s, owner: "a")
        #expect(try await create(first) == nil)
        #expect(first.stage == .answered)
        #expect(try await create(claim(s, owner: "b")) == .replay(status: 201, body: Data("answer".utf8)))
        #expect(try await create(claim(s, hash: "x", owner: "c")) == .mismatch)
        #expect(gateway.calls(.authorize).count == 1)
    }

    @Test(arguments: Backend.allCases)
    func startFinishAndAbandon(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let p = s.payments
        #expect(try await p.startIdempotent(tenant: s.tenant, key: "k", requestHash: "h") == .proceed)
        #expect(try await p.startIdempotent(tenant: s.tenant, key: "k", requestHash: "h") == .inProgress)
        #expect(try await p.startIdempotent(tenant: s.tenant, key: "k", requestHash: "x") == .mismatch)
        try await p.abandonIdempotent(tenant: s.tenant, key: "k")
        #expect(try await p.startIdempotent(tenant: s.tenant, key: "k", requestHash: "x") == .proceed)
        try await p.finishIdempotent(tenant: s.tenant, key: "k", status: 200, body: Data("ok".utf8))
        try await p.abandonIdempotent(tenant: s.tenant, key: "k")
        #expect(
            try await p.startIdempotent(tenant: s.tenant, key: "k", requestHash: "x")
                == .replay(status: 200, body: Data("ok".utf8)))
    }
}
