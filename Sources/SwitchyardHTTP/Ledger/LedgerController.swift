import Foundation
import Hummingbird
import SwitchyardCore

/// The merchant API's `/v1/ledger_entries`: the funds movements after payment (disputes' withdrawals and
/// reinstatements), newest first, filtered by payment, source and type.
struct LedgerController: Sendable {
    let disputes: DisputeService

    /// Registers the route on `merchant`, the `/v1` group of keys with the `payments` scope.
    func register(on merchant: RouterGroup<AppContext>) {
        merchant.get("ledger_entries") { request, context in
            let key = try context.apiKey
            var page = try ListQuery.page(request)
            page.livemode = key.livemode
            let (filter, type) = try Self.filter(request)
            page.status = type?.rawValue
            let found = try await disputes.ledger(tenant: key.tenantId, filter: filter, page: page)
            return JSONIO.response(.ok, ListResource(found, page, id: \.id) { LedgerEntryResource($0) })
        }
    }

    /// The list's own filters: `payment` (pay_…), `source` (a dispute's dp_…) and `type`.
    static func filter(_ request: Request) throws -> (LedgerFilter, LedgerEntry.Kind?) {
        let query = request.uri.queryParameters
        var filter = LedgerFilter()
        if let payment = query.get("payment") {
            guard payment.hasPrefix("pay_"), payment.count <= 64 else {
                throw APIError(.invalidParameter, "payment must be the id of a payment (pay_…)", param: "payment")
            }
            filter.paymentId = payment
        }
        if let source = query.get("source") {
            guard source.hasPrefix("dp_"), source.count <= 64 else {
                throw APIError(.invalidParameter, "source must be the id of a dispute (dp_…)", param: "source")
            }
            filter.source = source
        }
        var kind: LedgerEntry.Kind?
        if let type = query.get("type") {
            guard let known = LedgerEntry.Kind(rawValue: type) else {
                let names = LedgerEntry.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError(.invalidParameter, "type must be one of \(names)", param: "type")
            }
            kind = known
        }
        return (filter, kind)
    }
}

/// A ledger entry as the merchant API shows it.
struct LedgerEntryResource: Encodable, Sendable {
    var id: String
    var object = "ledger_entry"
    var type: String
    var amount: Int64
    var currency: String
    var source: String
    var payment: String?
    var providerAccount: String
    var livemode: Bool
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, type, amount, currency, source, payment, livemode
        case providerAccount = "provider_account"
        case createdAt = "created_at"
    }

    init(_ entry: LedgerEntry) {
        id = entry.id
        type = entry.kind.rawValue
        amount = entry.amount
        currency = entry.currency
        source = entry.source
        payment = entry.paymentId
        providerAccount = entry.accountId.uuidString.lowercased()
        livemode = entry.livemode
        createdAt = entry.createdAt
    }
}
