import Foundation
import Logging
import ProviderKit

/// Disputes as the provider reports them and as the merchant reads them: each plugin's ``DisputeEvent`` is
/// applied by ``DisputeIntake`` to the dispute it concerns, stored with its funds and webhook events in one
/// transaction.
public struct DisputeService: Sendable {
    let disputes: any DisputeRepository
    let payments: any PaymentRepository
    let configuration: any ConfigurationRepository
    let gateway: any ProviderGateway
    let policy: PolicyCenter
    let ids: IdentifierGenerator
    let clock: @Sendable () -> Date
    let logger: Logger

    public init(
        disputes: any DisputeRepository, payments: any PaymentRepository, configuration: any ConfigurationRepository,
        gateway: any ProviderGateway, policy: PolicyCenter, ids: IdentifierGenerator,
        clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.disputes = disputes
        self.payments = payments
        self.configuration = configuration
        self.gateway = gateway
        self.policy = policy
        self.ids = ids
        self.clock = clock
        self.logger = logger
    }

    /// Applies `event`, reported through `account`, to its dispute; returns the dispute as stored (nil when
    /// nothing was kept). A dispute whose payment is unknown is kept for review.
    @discardableResult
    public func receive(_ event: DisputeEvent, account: ProviderAccount) async throws -> Dispute? {
        var attempt: Attempt?
        if let reference = event.reference {
            attempt = try await payments.attempt(accountId: account.id, attemptId: reference)
        }
        if attempt == nil, let providerId = event.providerPaymentId {
            attempt = try await payments.attempt(accountId: account.id, providerPaymentId: providerId)
        }
        let source = DisputeIntake.Source(tenantId: account.tenantId, accountId: account.id, livemode: account.livemode)
        let newId = ids.make("dp")
        let now = clock()
        let step = try await disputes.record(
            tenant: account.tenantId, accountId: account.id, providerDisputeId: event.providerDisputeId,
            paymentId: attempt?.paymentId
        ) { existing, payment in
            DisputeIntake.step(event, existing: existing, payment: payment, source: source, newId: newId, at: now)
        }
        if let dispute = step.dispute {
            var metadata: Logger.Metadata = [
                "tenant.id": "\(account.tenantId)", "dispute.id": "\(dispute.id)",
                "dispute.status": "\(dispute.status.rawValue)", "provider.account": "\(account.id)",
            ]
            if let paymentId = dispute.paymentId { metadata["payment.id"] = "\(paymentId)" }
            if let review = dispute.review, step.actions.contains(.listForReview(review)) {
                metadata["dispute.review"] = "\(review)"
                logger.warning("dispute kept for review", metadata: metadata)
            } else if !step.actions.isEmpty {
                logger.info("dispute applied", metadata: metadata)
            }
        }
        return step.dispute
    }

    /// The tenant's dispute `id`; 404 for another tenant's or, with `livemode`, the other mode's.
    public func get(tenant: UUID, id: String, livemode: Bool? = nil) async throws -> Dispute {
        guard let dispute = try await disputes.dispute(tenant: tenant, id: id),
            livemode.map({ $0 == dispute.livemode }) ?? true
        else { throw CoreError.notFound("dispute") }
        return dispute
    }

    /// A page of the tenant's disputes, newest first.
    public func list(tenant: UUID, filter: DisputeFilter, page: PageRequest) async throws -> Page<Dispute> {
        try await disputes.disputes(tenant: tenant, filter: filter, page: page)
    }

    /// A page of the tenant's ledger (the disputes' funds movements), newest first.
    public func ledger(tenant: UUID, filter: LedgerFilter, page: PageRequest) async throws -> Page<LedgerEntry> {
        try await disputes.ledgerEntries(tenant: tenant, filter: filter, page: page)
    }

    /// The service's notion of now.
    public func now() -> Date { clock() }
}

extension DisputeService {
    /// The janitor's part: sends the reminders due at `now` and closes, as lost, the disputes still waiting
    /// for evidence past their deadline and `deadlines`' grace; at most `limit` of each per look.
    public func watchDeadlines(now: Date, deadlines: DisputePolicy, limit: Int) async throws {
        let reminded = try await disputes.remindEvidenceDue(now: now, horizons: deadlines.horizons, limit: limit)
        for dispute in reminded {
            logger.info(
                "dispute evidence due soon",
                metadata: ["tenant.id": "\(dispute.tenantId)", "dispute.id": "\(dispute.id)"])
        }
        for dispute in try await disputes.pastDue(before: now.addingTimeInterval(-deadlines.grace), limit: limit) {
            let step = try await disputes.record(
                tenant: dispute.tenantId, accountId: dispute.accountId, providerDisputeId: dispute.providerDisputeId,
                paymentId: dispute.paymentId
            ) { existing, _ in
                guard let existing else { return DisputeStep(dispute: nil, actions: []) }
                var machine = DisputeMachine(dispute: existing)
                let actions = machine.apply(.expired, at: now)
                return DisputeStep(dispute: machine.dispute, actions: actions)
            }
            if let closed = step.dispute, !step.actions.isEmpty {
                logger.notice(
                    "dispute closed past its evidence deadline",
                    metadata: [
                        "tenant.id": "\(closed.tenantId)", "dispute.id": "\(closed.id)",
                        "dispute.status": "\(closed.status.rawValue)",
                    ])
            }
        }
    }
}
