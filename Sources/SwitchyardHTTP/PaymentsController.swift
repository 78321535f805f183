import Foundation
import HTTPTypes
import Hummingbird
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardObservability
import SwitchyardStore

/// The merchant API: `/v1/payments` and its operations.
struct PaymentsController: Sendable {
    let service: PaymentService
    let store: PostgresStore
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

        enum CodingKeys: String, CodingKey {
            case amount, currency, country, method, reference, customer
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

    /// Registers the routes on `merchant`, the `/v1` group of keys with the `payments` scope.
    func register(on merchant: RouterGroup<AppContext>) {
        let group = merchant.group("payments")
        group.post { request, context in try await create(request, context) }
        group.get { request, context in try await list(request, context) }
        group.get(":id") { request, context in
            let key = try context.apiKey
            let record = try await service.get(tenant: key.tenantId, paymentId: try id(context))
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
        group.post(":id/capture") { request, context in
            try await idempotent(request, context, resume: .paymentState) { key, data in
                let body = try JSONIO.decode(AmountBody.self, from: data)
                return try respond(
                    try await service.capture(
                        tenant: key.tenantId, paymentId: try id(context), amount: body.amount?.value))
            }
        }
        group.post(":id/complete") { request, context in
            try await idempotent(request, context, resume: .paymentState) { key, data in
                let body = try JSONIO.decode(CompleteBody.self, from: data)
                return try respond(
                    try await service.complete(
                        tenant: key.tenantId, paymentId: try id(context), paymentData: body.paymentData))
            }
        }
        group.post(":id/cancel") { request, context in
            try await idempotent(request, context, resume: .paymentState) { key, _ in
                try respond(try await service.cancel(tenant: key.tenantId, paymentId: try id(context)))
            }
        }
        group.post(":id/refunds") { request, context in
            try await idempotent(request, context, resume: .createdRefund) { key, data in
                let body = try JSONIO.decode(AmountBody.self, from: data)
                let refund = try await service.refund(
                    tenant: key.tenantId, paymentId: try id(context), amount: body.amount?.value, reason: body.reason)
                PaymentMetrics.refunded(status: refund.status.rawValue, tenant: key.tenantId)
                return try Encoded(.created, RefundResource(refund))
            }
        }
        group.get(":id/session") { request, context in
            let key = try context.apiKey
            let session = try await service.session(tenant: key.tenantId, paymentId: try id(context))
            return JSONIO.response(.ok, ClientSessionResource(session, withAction: true))
        }
        group.post(":id/session") { request, context in
            try await idempotent(request, context, resume: .paymentState) { key, _ in
                try respond(try await service.renewSession(tenant: key.tenantId, paymentId: try id(context)))
            }
        }
        group.post(":id/sync") { request, context in
            let key = try context.apiKey
            let record = try await service.sync(tenant: key.tenantId, paymentId: try id(context))
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
    }

    func id(_ context: AppContext) throws -> String {
        guard let id = context.parameters.get("id"), id.count <= 64 else { throw CoreError.notFound("payment") }
        return id.removingPercentEncoding ?? id
    }

    private func respond(_ record: PaymentRecord, status: HTTPResponse.Status = .ok) throws -> Encoded {
        try Encoded(status, PaymentResource(record, now: service.now()))
    }

    private func create(_ request: Request, _ context: AppContext) async throws -> Response {
        try await idempotent(request, context, resume: .createdPayment, claimsInCreate: true) { key, data in
            let payment = try Self.newPayment(data)
            let record = try await service.create(tenant: key.tenantId, payment)
            PaymentMetrics.created(
                plugin: record.lastAttempt?.pluginId, outcome: record.lastAttempt?.outcome?.rawValue,
                status: record.payment.status.rawValue, tenant: key.tenantId)
            return try respond(record, status: .created)
        }
    }

    /// The response a create stores for its `Idempotency-Key`: the payment, or the merchant's error.
    func createdResponse(_ result: Result<PaymentRecord, CoreError>) throws -> (status: Int, body: Data) {
        switch result {
        case .success(let record):
            let encoded = try respond(record, status: .created)
            return (Int(encoded.status.code), encoded.data)
        case .failure(let error):
            let api = APIError(error)
            return (Int(api.status.code), try Self.envelope(api))
        }
    }

    /// A create body, decoded and validated; throws a 4xx ``APIError`` or ``CoreError``.
    static func newPayment(_ data: Data) throws -> NewPayment {
        let body = try JSONIO.decode(CreateBody.self, from: data)
        return try NewPayment(
            amount: body.amount.value, currency: body.currency, country: body.country, method: body.method,
            reference: body.reference, captureMode: body.captureMode ?? .automatic, customerId: body.customer,
            returnURL: body.returnURL, paymentData: body.paymentData ?? [:], paymentMethodId: body.paymentMethod,
            savePaymentMethod: body.savePaymentMethod ?? false)
    }

    private func list(_ request: Request, _ context: AppContext) async throws -> Response {
        let key = try context.apiKey
        let query = request.uri.queryParameters
        let limit = try ListQuery.limit(query.get("limit"))
        let page = try await store.records(
            tenant: key.tenantId, reference: query.get("reference"), startingAfter: query.get("starting_after"),
            limit: limit + 1)
        let records = Array(page.prefix(limit))
        let hasMore = page.count > limit
        return JSONIO.response(
            .ok,
            ListResource(
                data: records.map { PaymentResource($0, now: service.now()) }, hasMore: hasMore,
                nextCursor: hasMore ? records.last?.payment.id : nil))
    }
}

/// A response body already encoded, so it can be stored for idempotent replay.
struct Encoded: Sendable {
    var status: HTTPResponse.Status
    var data: Data

    init(_ status: HTTPResponse.Status, _ value: some Encodable) throws {
        self.status = status
        self.data = try JSONIO.encoder.encode(value)
    }
}
