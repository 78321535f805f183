import Foundation
import Logging
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardDomainTestSupport
import SwitchyardStore
import SwitchyardTestSupport
import Testing

/// The repositories under contract: the in-memory ones tests of the domain use, and the PostgreSQL store.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case postgres

    var testDescription: String { rawValue }
}

/// One backend's repositories over fresh storage, with one tenant and one provider account in it.
struct ContractSubject {
    let clock: ManualClock
    let payments: any PaymentRepository & PaymentRecordListing
    let settlement: any SettlementRepository
    /// `Idempotency-Key` claims.
    let claims: any IdempotencyRepository
    let credentials: any CredentialRepository
    let disputes: any DisputeRepository
    let stats: any RoutingStatsRepository & RoutingOutcomeRetention
    let tenant: UUID
    let account: UUID

    static func make(_ backend: Backend) async throws -> ContractSubject {
        let clock = ManualClock()
        switch backend {
        case .memory:
            let payments = InMemoryPaymentRepository(clock: clock.now)
            return ContractSubject(
                clock: clock, payments: payments, settlement: payments, claims: payments,
                credentials: InMemoryCredentials(payments: payments), disputes: InMemoryDisputes(payments: payments),
                stats: payments, tenant: UUID(), account: UUID())
        case .postgres:
            let logger = Logger(label: "contract", factory: { _ in SwiftLogNoOpLogHandler() })
            let url = try await TestPostgres.freshSwitchyardDatabase().appURL
            let pool = try PGPool(PostgresConfiguration(connectionString: url, poolSize: 4), logger: logger)
            let store = PostgresStore(
                pool: pool, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: clock.now, logger: logger)
            let tenant = try await store.tenants.createTenant(name: "contract", actor: "test").id
            let account = try await store.accounts.createAccount(
                ProviderAccount(
                    id: UUID(), tenantId: tenant, name: "a", pluginId: "scripted", environment: "test",
                    baseURL: "https://provider.invalid", credentials: [:], secretFields: [], enabled: true,
                    createdAt: clock.date),
                actor: "test")
            return ContractSubject(
                clock: clock, payments: store.payments, settlement: store.settlement, claims: store.idempotencyKeys,
                credentials: store.credentials, disputes: store.disputes, stats: store.routing,
                tenant: tenant, account: account.id)
        }
    }

    /// A new `processing` payment of `amount`, created now.
    func payment(_ id: String, amount: Int64 = 1_000, status: PaymentStatus = .processing) -> Payment {
        var p = Payment(
            id: id, tenantId: tenant, amount: amount, currency: "EUR", country: "FR", method: "card",
            reference: "ref-\(id)", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: status, createdAt: clock.date)
        p.providerAccountId = account
        if status == .succeeded { p.amountCaptured = amount }
        return p
    }

    func attempt(_ id: String, of paymentId: String, sequence: Int = 1) -> Attempt {
        Attempt(
            id: id, paymentId: paymentId, tenantId: tenant, accountId: account, pluginId: "scripted",
            sequence: sequence, reason: "first", startedAt: clock.date)
    }

    func refund(_ id: String, of paymentId: String, amount: Int64, status: Refund.Status = .pending) -> Refund {
        var r = Refund(
            id: id, paymentId: paymentId, tenantId: tenant, amount: amount, currency: "EUR", reason: nil,
            createdAt: clock.date)
        r.status = status
        return r
    }
}
