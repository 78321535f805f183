#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomProvider {
    /// `payments/acceptDispute`, or `payments/supplyDefenseDocument` once per document (Antom takes one
    /// document per call, at most 1,000,000 Base64 characters: a larger one is refused before anything is
    /// sent). The first document not taken ends the answer.
    public func answerDispute(_ request: DisputeAnswerRequest, account: AccountContext) async throws
        -> DisputeAnswerReply
    {
        switch request.answer {
        case .accept:
            let exchange = try await exchange(
                .acceptDispute, body: AntomAcceptDisputeRequest(disputeId: request.providerDisputeId),
                account: account, as: AntomDisputeResponse.self)
            return AntomMapping.disputeReply(exchange)
        case .evidence:
            guard !request.documents.isEmpty else {
                return DisputeAnswerReply(status: .refused, code: "NO_DOCUMENT", message: "no document to supply")
            }
            if request.documents.contains(where: { $0.data.count > AntomMapping.maximumEvidenceCharacters }) {
                return DisputeAnswerReply(
                    status: .refused, code: "DOCUMENT_TOO_LARGE",
                    message: "Antom takes documents of at most 1,000,000 Base64 characters")
            }
            var reply = DisputeAnswerReply(status: .accepted)
            for document in request.documents {
                let exchange = try await exchange(
                    .supplyDefenseDocument,
                    body: AntomSupplyDefenseRequest(
                        disputeId: request.providerDisputeId, disputeEvidence: document.data),
                    account: account, as: AntomDisputeResponse.self)
                reply = AntomMapping.disputeReply(exchange)
                guard reply.status == .accepted else { return reply }
            }
            return reply
        }
    }
}
