import Foundation
import Hummingbird
import SwitchyardCore

/// The operator's view of a tenant's disputes: `GET /admin/v1/tenants/{tenant}/disputes` (the merchant
/// list's filters) and the answers a support operator gives on the merchant's behalf,
/// `POST …/disputes/{id}/accept` and `POST …/disputes/{id}/evidence` (`disputes.act`), each audited with
/// the operator who gave it.
struct AdminDisputesController: Sendable {
    let disputes: DisputeService
    let tenants: TenantAdminService
    /// Where operators' answers are audited; nil: not audited (no operator store).
    let operators: (any OperatorRepository)?
    let evidenceBodyLimit: Int

    func register(on admin: RouterGroup<AppContext>) {
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
            try await JSONIO.body(request, context, limit: 1_024).noFields()
            let id = try context.parameters.require("id")
            let dispute = try await disputes.accept(tenant: tenant, id: id)
            try await operators?.auditAction(
                tenant: tenant, action: "dispute.accept", target: id, details: ["status": dispute.status.rawValue])
            return JSONIO.response(.ok, DisputeSnapshot(dispute, now: disputes.now()))
        }
        group.post(":id/evidence") { request, context in
            let tenant = try await tenants.tenant(in: context).id
            let body = try await JSONIO.body(request, context, limit: evidenceBodyLimit).decode(
                DisputesController.EvidenceBody.self)
            let id = try context.parameters.require("id")
            let files = try DisputesController.files(body.files ?? [])
            let dispute = try await disputes.submitEvidence(
                tenant: tenant, id: id, files: files, submit: body.submit ?? false)
            try await operators?.auditAction(
                tenant: tenant, action: body.submit == true ? "dispute.evidence_submit" : "dispute.evidence_stage",
                target: id, details: ["files": "\(files.count)", "status": dispute.status.rawValue])
            return JSONIO.response(.ok, DisputeSnapshot(dispute, now: disputes.now()))
        }
    }
}
