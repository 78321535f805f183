import Foundation
import Hummingbird
import SwitchyardCore

extension DisputesController {
    /// One evidence document as the request carries it: its MIME type, its name and its bytes in Base64.
    struct EvidenceBody: Decodable {
        struct File: Decodable {
            var type: String
            var name: String
            var data: String
        }

        var files: [File]?
        var submit: Bool?
    }

    /// Registers `POST /v1/disputes/{id}/accept` and `POST /v1/disputes/{id}/evidence`, each under
    /// `idempotency`.
    func registerAnswers(on merchant: RouterGroup<AppContext>, idempotency: IdempotencyGate) {
        let group = merchant.group("disputes")
        group.post(":id/accept") { request, context in
            try await idempotency.run(request, context, resume: .fresh) { json, _, _ in
                try json.noFields()
                let key = try context.apiKey
                let dispute = try await disputes.accept(
                    tenant: key.tenantId, id: try context.parameters.require("id"), livemode: key.livemode)
                return try .dispute(dispute, now: disputes.now())
            }
        }
        group.post(":id/evidence") { request, context in
            try await idempotency.run(request, context, resume: .fresh, limit: evidenceBodyLimit) { json, _, _ in
                let body = try json.decode(EvidenceBody.self)
                let key = try context.apiKey
                let dispute = try await disputes.submitEvidence(
                    tenant: key.tenantId, id: try context.parameters.require("id"),
                    files: try Self.files(body.files ?? []), submit: body.submit ?? false, livemode: key.livemode)
                return try .dispute(dispute, now: disputes.now())
            }
        }
    }

    /// The documents of a request; `400 invalid_field` naming the one whose data is not Base64.
    static func files(_ files: [EvidenceBody.File]) throws -> [EvidenceFile] {
        guard files.count <= DisputeEvidenceRules.maximumFiles else {
            throw APIError(
                .evidenceTooLarge, "files holds at most \(DisputeEvidenceRules.maximumFiles) documents", param: "files")
        }
        return try files.enumerated().map { index, file in
            guard let data = Data(base64Encoded: file.data) else {
                throw APIError(.invalidField, "files[\(index)].data must be Base64", param: "files[\(index)].data")
            }
            return EvidenceFile(type: file.type, name: file.name, data: Array(data))
        }
    }
}
