import Foundation
import ProviderKit

extension DisputeService {
    /// The merchant accepts the dispute (does not defend it): sent through the provider's API where its
    /// plugin has one, and then the dispute is closed (lost, its funds kept withdrawn); recorded with
    /// ``DisputeResponse/Channel/respondAtProvider`` otherwise, the dispute unchanged until the provider
    /// reports. `409 dispute_closed` for a decided or closed dispute.
    public func accept(tenant: UUID, id: String, livemode: Bool? = nil) async throws -> Dispute {
        let dispute = try await open(tenant: tenant, id: id, livemode: livemode)
        let account = try await account(of: dispute)
        let result = await gateway.answerDispute(
            .accept, providerDisputeId: dispute.providerDisputeId, account: account)
        return try await settle(result, action: .accept, dispute: dispute, event: .accepted)
    }

    /// Stages `files` as evidence of the dispute and, with `submit`, sends every staged document to the
    /// provider (through its API where its plugin has one; recorded with
    /// ``DisputeResponse/Channel/respondAtProvider`` otherwise). Each document is checked against
    /// ``DisputeEvidenceRules`` and the policy's `disputes.max_evidence_bytes` before anything is stored.
    public func submitEvidence(
        tenant: UUID, id: String, files: [EvidenceFile], submit: Bool, livemode: Bool? = nil
    ) async throws -> Dispute {
        let maximum = policy.platform.disputes.maxEvidenceBytes
        for (index, file) in files.enumerated() {
            try DisputeEvidenceRules.check(file, index: index, maximumBytes: maximum)
        }
        guard !files.isEmpty || submit else {
            throw CoreError(
                .missingField, "files must hold at least one document, or submit must be true", param: "files")
        }
        let dispute = try await open(tenant: tenant, id: id, livemode: livemode)
        for file in files {
            try await disputes.stageEvidence(
                tenant: tenant, disputeId: id, file: file, id: ids.make("dpe"), at: clock())
        }
        guard submit else { return try await get(tenant: tenant, id: id) }
        let staged = try await disputes.stagedEvidence(tenant: tenant, disputeId: id)
        guard !staged.isEmpty else {
            throw CoreError(.missingField, "the dispute has no staged evidence to submit", param: "files")
        }
        let account = try await account(of: dispute)
        let result = await gateway.answerDispute(
            .evidence(staged), providerDisputeId: dispute.providerDisputeId, account: account)
        let settled = try await settle(result, action: .evidence, dispute: dispute, event: .evidenceSubmitted)
        if result == .done { try await disputes.markEvidenceSubmitted(tenant: tenant, disputeId: id, at: clock()) }
        return settled
    }

    /// The dispute, refused with `409 dispute_closed` when nothing can answer it any more.
    private func open(tenant: UUID, id: String, livemode: Bool?) async throws -> Dispute {
        let dispute = try await get(tenant: tenant, id: id, livemode: livemode)
        guard !dispute.status.isClosed else {
            throw CoreError(
                .disputeClosed, "the dispute is \(dispute.status.rawValue): it can no longer be answered")
        }
        return dispute
    }

    private func account(of dispute: Dispute) async throws -> ProviderAccount {
        guard let account = try await configuration.account(tenant: dispute.tenantId, id: dispute.accountId) else {
            throw CoreError(.invalidState, "the dispute's provider account no longer exists")
        }
        return account
    }

    /// Records what the provider made of the answer: applied to the dispute when it took it, recorded for the
    /// merchant to answer at the provider when it has no API, an error otherwise.
    private func settle(
        _ result: DisputeAnswerResult, action: DisputeResponse.Action, dispute: Dispute, event: DisputeMachine.Event
    ) async throws -> Dispute {
        let now = clock()
        let response: DisputeResponse
        switch result {
        case .done:
            response = DisputeResponse(
                action: action, channel: .providerAPI, message: "sent to the provider through its API", at: now)
        case .unsupported:
            response = DisputeResponse(
                action: action, channel: .respondAtProvider,
                message: "the provider has no API for this answer: give it at the provider (its dashboard, letter "
                    + "or email); the provider's notifications will report the result", at: now)
        case .refused(let code, let message):
            throw CoreError(
                .disputeAnswerRefused, "the provider refused the answer (\(code)): \(message)", providerCode: code)
        case .unknown(let reason):
            throw CoreError(
                .providerUnreachable,
                "the provider's answer is unknown (\(reason)); send the request again with the same Idempotency-Key")
        }
        let step = try await disputes.record(
            tenant: dispute.tenantId, accountId: dispute.accountId, providerDisputeId: dispute.providerDisputeId,
            paymentId: dispute.paymentId
        ) { existing, _ in
            guard let existing else { return DisputeStep(dispute: nil, actions: []) }
            var machine = DisputeMachine(dispute: existing)
            var actions: [DisputeMachine.Action] = []
            if result == .done { actions = machine.apply(event, at: now) }
            var answered = machine.dispute
            answered.response = response
            if actions.isEmpty { answered.updatedAt = now }
            return DisputeStep(dispute: answered, actions: actions)
        }
        logger.info(
            "dispute answered",
            metadata: [
                "tenant.id": "\(dispute.tenantId)", "dispute.id": "\(dispute.id)",
                "dispute.answer": "\(action.rawValue)",
                "dispute.channel": "\(response.channel.rawValue)",
            ])
        return step.dispute ?? dispute
    }
}
