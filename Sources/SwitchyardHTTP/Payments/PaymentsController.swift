import Foundation
import HTTPTypes
import Hummingbird
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardObservability

/// The merchant API: `/v1/payments` and its operations.
struct PaymentsController: Sendable {
    let service: PaymentService
    let records: any PaymentRecordListing
    let bodyLimit: Int

    struct CreateBody: Decodable {
        var amount: MinorUnits
        var currency: String
        var country: String
        var method: String?
        var reference: String
        var captureMode: CaptureMode?
        var customer: String?
        var returnURL: String?
        var paymentData: [String: JSONValue]?
        var paymentMethod: String?
        var savePaymentMethod: Bool?
        var metadata: [String: String]?
        var description: String?

        enum CodingKeys: String, CodingKey {
            case amount, currency, country, method, reference, customer, metadata, description
            case captureMode = "capture_mode"
            case returnURL = "return_url"
            case paymentData = "payment_data"
            case paymentMethod = "payment_method"
            case savePaymentMethod = "save_payment_method"
        }
    }

    struct CompleteBody: Decodable {
        var paymentData: [String: JSONValue]

        enum CodingKeys: String, CodingKey {
            case paymentData = "payment_data"
        }
    }

    struct AmountBody: Decodable {
        var amount: MinorUnits?
        var reason: String?
    }

    struct RefundBody: Decodable {
        var amount: MinorUnits?
        var reason: String?
        var metadata: [String: String]?
        var description: String?
    }

    /// Registers the routes on `merchant`, the `/v1` group of keys with the `payments` scope; writes run
    /// through `idempotency`.
    func register(on merchant: RouterGroup<AppContext>, idempotency: IdempotencyGate) {
        let group = merchant.group("payments")
        group.post { request, context in
            let livemode = try context.apiKey.livemode
            let decode = { (body: JSONBody) in try Self.newPayment(body, livemode: livemode) }
            return try await idempotency.create(request, context, decode: decode) { record in
                PaymentMetrics.created(
                    plugin: record.lastAttempt?.pluginId, outcome: record.lastAttempt?.outcome?.rawValue,
                    status: record.payment.status.rawValue, tenant: record.payment.tenantId)
                return try respond(record, status: .created)
            }
        }
        group.get { request, context in try await list(request, context) }
        group.get(":id") { _, context in
            let key = try context.apiKey
            let record = try await service.get(
                tenant: key.tenantId, paymentId: try Self.paymentId(context), livemode: key.livemode)
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
        group.post(":id/capture") { request, context in
            try await idempotency.run(request, context, resume: .paymentState) { json, _, contact in
                let body = try json.decode(AmountBody.self)
                return try reply(
                    try await service.capture(
                        tenant: try context.tenant, paymentId: try Self.paymentId(context), amount: body.amount?.value,
                        livemode: try context.apiKey.livemode, contact: &contact))
            }
        }
        group.post(":id/complete") { request, context in
            try await idempotency.run(request, context, resume: .paymentState) { json, _, contact in
                let body = try json.decode(CompleteBody.self)
                return try reply(
                    try await service.complete(
                        tenant: try context.tenant, paymentId: try Self.paymentId(context),
                        paymentData: body.paymentData, livemode: try context.apiKey.livemode, contact: &contact))
            }
        }
        group.post(":id/cancel") { request, context in
            try await idempotency.run(request, context, resume: .paymentState) { json, _, contact in
                try json.noFields()
                return try reply(
                    try await service.cancel(
                        tenant: try context.tenant, paymentId: try Self.paymentId(context),
                        livemode: try context.apiKey.livemode, contact: &contact))
            }
        }
        group.post(":id/refunds") { request, context in
            try await idempotency.run(request, context, resume: .createdRefund) { json, scope, _ in
                let tenant = try context.tenant
                let body = try json.decode(RefundBody.self)
                let refund = try await service.refund(
                    tenant: tenant, paymentId: try await id(context), amount: body.amount?.value, reason: body.reason,
                    idempotency: scope, metadata: try Metadata(body.metadata ?? [:]), description: body.description)
                PaymentMetrics.refunded(status: refund.status.rawValue, tenant: tenant)
                return try .refund(refund)
            }
        }
        group.get(":id/session") { _, context in
            let session = try await service.session(tenant: try context.tenant, paymentId: try await id(context))
            return JSONIO.response(.ok, ClientSessionResource(session, withAction: true))
        }
        group.post(":id/session") { request, context in
            try await idempotency.run(request, context, resume: .paymentState) { json, _, contact in
                try json.noFields()
                return try reply(
                    try await service.renewSession(
                        tenant: try context.tenant, paymentId: try await id(context), contact: &contact))
            }
        }
        group.post(":id/sync") { request, context in
            try await JSONIO.noFields(request, context, limit: bodyLimit)
            let record = try await service.sync(tenant: try context.tenant, paymentId: try await id(context))
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
    }

    /// The payment named in the path, once it is known to be of the key's mode: a payment of the other mode
    /// is `404` as if it did not exist.
    func id(_ context: AppContext) async throws -> String {
        let (id, key) = (try Self.paymentId(context), try context.apiKey)
        _ = try await service.get(tenant: key.tenantId, paymentId: id, livemode: key.livemode)
        return id
    }

    /// The payment named in the path; `404` for an id no payment can have.
    static func paymentId(_ context: AppContext) throws -> String {
        guard let id = context.parameters.get("id"), id.count <= 64 else { throw CoreError.notFound("payment") }
        return id.removingPercentEncoding ?? id
    }

    private func respond(_ record: PaymentRecord, status: HTTPResponse.Status = .ok) throws -> Encoded {
        try Encoded(status, PaymentResource(record, now: service.now()))
    }

    /// A payment acted on, as answered and stored for its `Idempotency-Key`.
    private func reply(_ record: PaymentRecord) throws -> IdempotentReply {
        try .payment(record, now: service.now())
    }

    /// A create body, decoded and validated, for a key of mode `livemode`; throws a 4xx ``APIError`` or
    /// ``CoreError``.
    static func newPayment(_ json: JSONBody, livemode: Bool = false) throws -> NewPayment {
        let body = try json.decode(CreateBody.self)
        var payment = try NewPayment(
            amount: body.amount.value, currency: body.currency, country: body.country, method: body.method,
            reference: body.reference, captureMode: body.captureMode ?? .automatic, customerId: body.customer,
            returnURL: body.returnURL, paymentData: body.paymentData ?? [:], paymentMethodId: body.paymentMethod,
            savePaymentMethod: body.savePaymentMethod ?? false, metadata: try Metadata(body.metadata ?? [:]),
            merchantDescription: body.description)
        payment.livemode = livemode
        return payment
    }

    private func list(_ request: Request, _ context: AppContext) async throws -> Response {
        let key = try context.apiKey
        let query = request.uri.queryParameters
        var page = try ListQuery.page(request, statuses: PaymentStatus.allCases.map(\.rawValue))
        page.livemode = key.livemode
        let expanded = try ListQuery.expansions(request, PaymentExpansion.self)
        let light = context.apiVersion?.has(.listsOmitHeavyParts) ?? false
        let found = try await records.records(
            tenant: key.tenantId, reference: query.get("reference"), metadata: try MetadataQuery.filters(query),
            page: page)
        let now = service.now()
        return JSONIO.response(
            .ok,
            ListResource(found, page, id: \.payment.id) { record -> PaymentResource in
                let whole = PaymentResource(record, now: now)
                return light ? whole.expanding(only: expanded) : whole
            })
    }
}

/// A response body already encoded, rendered once.
struct Encoded: Sendable {
    var status: HTTPResponse.Status
    var data: Data

    init(_ status: HTTPResponse.Status, _ value: some Encodable) throws {
        self.status = status
        self.data = try JSONIO.encoder.encode(value)
    }

    /// The response that answers it.
    var response: Response { JSONIO.raw(status, data) }
}
