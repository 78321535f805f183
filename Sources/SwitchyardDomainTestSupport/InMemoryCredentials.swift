import Foundation
import SwitchyardCore
import Synchronization

/// Customers' stored credentials kept in memory, with the PostgreSQL store's contracts: one credential
/// per account and correlation id, updates under a lock, lists without tokens, and stale pending
/// credentials found through the payment that asked for them (in `payments`, when given).
public final class InMemoryCredentials: CredentialRepository, Sendable {
    private struct State {
        var stored: [String: StoredPaymentMethod] = [:]

        /// Inserts or updates a credential; its parties, kind and correlation never change.
        mutating func upsert(_ credential: StoredPaymentMethod) throws {
            guard var existing = stored[credential.id] else {
                if stored.values.contains(where: {
                    $0.accountId == credential.accountId && $0.correlationId == credential.correlationId
                }) {
                    throw InMemoryConstraintViolation(description: "a second credential with one correlation id")
                }
                stored[credential.id] = credential
                return
            }
            existing.status = credential.status
            existing.token = credential.token
            existing.paymentMethodType = credential.paymentMethodType
            existing.display = credential.display
            existing.session = credential.session
            existing.failureCode = credential.failureCode
            existing.failureMessage = credential.failureMessage
            existing.expiresAt = credential.expiresAt
            existing.updatedAt = credential.updatedAt
            stored[credential.id] = existing
        }
    }

    private let state = Mutex(State())
    private let payments: InMemoryPaymentRepository?

    public init(payments: InMemoryPaymentRepository? = nil) {
        self.payments = payments
    }

    public func saveCredential(_ credential: StoredPaymentMethod) async throws {
        try state.withLock { try $0.upsert(credential) }
    }

    public func updateCredential(
        tenant: UUID, id: String, _ body: @escaping @Sendable (inout StoredPaymentMethod) -> Bool
    ) async throws -> StoredPaymentMethod? {
        try state.withLock { state -> StoredPaymentMethod? in
            guard var credential = state.stored[id], credential.tenantId == tenant else { return nil }
            guard body(&credential) else { return credential }
            try state.upsert(credential)
            return credential
        }
    }

    public func credential(tenant: UUID, id: String) async throws -> StoredPaymentMethod? {
        first(tenant) { $0.id == id }
    }

    public func credential(tenant: UUID, accountId: UUID, correlationId: String) async throws
        -> StoredPaymentMethod?
    {
        first(tenant) { $0.accountId == accountId && $0.correlationId == correlationId }
    }

    public func credential(tenant: UUID, accountId: UUID, token: String) async throws -> StoredPaymentMethod? {
        first(tenant) { $0.accountId == accountId && $0.token == token }
    }

    public func credentials(tenant: UUID, customerId: String) async throws -> [StoredPaymentMethod] {
        state.withLock { state in
            state.stored.values.filter { $0.tenantId == tenant && $0.customerId == customerId }
                .sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id }
                .map { credential in
                    var shown = credential
                    shown.token = nil
                    return shown
                }
        }
    }

    public func credentials(tenant: UUID, customerId: String, page: PageRequest) async throws
        -> [StoredPaymentMethod]
    {
        try page.select(
            try await credentials(tenant: tenant, customerId: customerId), id: \.id, created: \.createdAt,
            status: \.status.rawValue, livemode: \.livemode)
    }

    public func stalePendingCredentials(now: Date, limit: Int) async throws -> [(tenant: UUID, id: String)] {
        let pending = state.withLock { state in state.stored.values.filter { $0.status == .pending } }
        return
            pending.filter { credential in
                if let expiry = credential.session?.expiresAt, expiry <= now { return true }
                guard let origin = credential.originPaymentId, let payment = payments?.storedPayment(origin) else {
                    return false
                }
                return payment.status != .processing && payment.providerAccountId != credential.accountId
            }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.prefix(max(0, limit))
            .map { (tenant: $0.tenantId, id: $0.id) }
    }

    private func first(_ tenant: UUID, where match: (StoredPaymentMethod) -> Bool) -> StoredPaymentMethod? {
        state.withLock { state in
            state.stored.values.filter { $0.tenantId == tenant && match($0) }.max { $0.createdAt < $1.createdAt }
        }
    }
}
