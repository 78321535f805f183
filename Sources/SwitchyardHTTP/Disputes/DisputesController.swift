import Foundation
import Hummingbird
import SwitchyardCore

/// The merchant API's `/v1/disputes`: the disputes the providers reported, newest first, filtered by
/// status, payment, due date and whether an operator should look; and the merchant's answers (accept,
/// evidence).
struct DisputesController: Sendable {
    let disputes: DisputeService
    /// The body limit of an evidence request: one document of the policy's largest, in Base64, and its
    /// fields (the platform's body limit at most).
    let evidenceBodyLimit: Int

    /// Registers the routes on `merchant`, the `/v1` group of keys with the `payments` scope.
    func register(on merchant: RouterGroup<AppContext>) {
        let group = merchant.group("disputes")
        group.get { request, context in
            let key = try context.apiKey
            var page = try ListQuery.page(request, statuses: Dispute.Status.allCases.map(\.rawValue))
            page.livemode = key.livemode
            let filter = try Self.filter(request)
            let found = try await disputes.list(tenant: key.tenantId, filter: filter, page: page)
            let now = disputes.now()
            return JSONIO.response(.ok, ListResource(found, page, id: \.id) { DisputeSnapshot($0, now: now) })
        }
        group.get(":id") { _, context in
            let key = try context.apiKey
            let id = try context.parameters.require("id")
            let dispute = try await disputes.get(tenant: key.tenantId, id: id, livemode: key.livemode)
            return JSONIO.response(.ok, DisputeSnapshot(dispute, now: disputes.now()))
        }
    }

    /// The list's own filters: `payment`, `due_before` (unix seconds or ISO 8601) and `needs_review`.
    static func filter(_ request: Request) throws -> DisputeFilter {
        let query = request.uri.queryParameters
        var filter = DisputeFilter()
        if let payment = query.get("payment") {
            guard payment.hasPrefix("pay_"), payment.count <= 64 else {
                throw APIError(.invalidParameter, "payment must be the id of a payment (pay_…)", param: "payment")
            }
            filter.paymentId = payment
        }
        filter.dueBefore = try PageRequest.date(query.get("due_before"), "due_before")
        if let review = query.get("needs_review") {
            guard let flag = Bool(review) else {
                throw APIError(.invalidParameter, "needs_review must be true or false", param: "needs_review")
            }
            filter.needsReview = flag
        }
        return filter
    }
}
