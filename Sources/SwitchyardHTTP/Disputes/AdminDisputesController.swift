import Foundation
import Hummingbird
import SwitchyardCore

/// The operator's view of a tenant's disputes: `GET /admin/v1/tenants/{tenant}/disputes` (the merchant
/// list's filters) and the answers a support operator gives on the merchant's behalf,
/// `POST …/disputes/{id}/accept` and `POST …/disputes/{id}/evidence` (`disputes.act`), each audited with
/// the operator who gave it and replayed, not given twice, under a repeated `Idempotency-Key`.
struct AdminDisputesController: Sendable {
    let disputes: DisputeService
    let tenants: TenantAdminService
    /// Where operators' answers are audited; nil: not audited (no operator store).
    let operators: (any OperatorRepository)?
    let evidenceBodyLimit: Int

    /// Registers the routes; the answers run under `idempotency` (an optional `Idempotency-Key`, keys apart
    /// from the merchant's).
    func register(on admin: RouterGroup<AppContext>, idempotency: IdempotencyGate) {
        let group = admin.group("tenants/:tenant/disputes")
        group.get { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let page = try ListQuery.page(request, statuses: Dispute.Status.allCases.map(\.rawValue))
            let found = try await disputes.list(
                tenant: tenant, filter: try DisputesController.filter(request), page: page)
            let now = disputes.now()
            return JSONIO.response(.ok, ListResource(found, page, id: \.id) { DisputeSnapshot($0, now: now) })
        }
        group.post(":id/accept") { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let id = try context.parameters.require("id")
            return try await idempotency.run(request, context, resume: .fresh, tenant: tenant) { json, _, _ in
                try json.noFields()
                let dispute = try await disputes.accept(tenant: tenant, id: id)
                try await operators?.auditAction(
                    tenant: tenant, action: "dispute.accept", target: id, details: ["status": dispute.status.rawValue])
                return try .dispute(dispute, now: disputes.now())
            }
        }
        group.post(":id/evidence") { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let id = try context.parameters.require("id")
            return try await idempotency.run(
                request, context, resume: .fresh, limit: evidenceBodyLimit, tenant: tenant
            ) { json, _, _ in
                let body = try json.decode(DisputesController.EvidenceBody.self)
                let files = try DisputesController.files(body.files ?? [])
                let dispute = try await disputes.submitEvidence(
                    tenant: tenant, id: id, files: files, submit: body.submit ?? false)
                try await operators?.auditAction(
                    tenant: tenant, action: body.submit == true ? "dispute.evidence_submit" : "dispute.evidence_stage",
                    target: id, details: ["files": "\(files.count)", "status": dispute.status.rawValue])
                return try .dispute(dispute, now: disputes.now())
            }
        }
    }
}
