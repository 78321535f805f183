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

    /// Registers the routes on `merchant`, the `/v1` group of keys with the `payments` scope; writes run
    /// under `idempotency`.
    func register(on merchant: RouterGroup<AppContext>, idempotency: IdempotencyMiddleware) {
        let group = merchant.group("payments")
        group.group().add(middleware: idempotency.creating { [self] in try createdResponse($0) }).post {
            request, context in try await create(request, context)
        }
        group.get { request, context in try await list(request, context) }
        group.get(":id") { _, context in
            let record = try await service.get(tenant: try context.tenant, paymentId: try id(context))
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
        let operations = group.group().add(middleware: idempotency.resuming(.paymentState))
        operations.post(":id/capture") { request, context in
            let body = try JSONIO.decode(AmountBody.self, from: try await JSONIO.body(request, limit: bodyLimit))
            return try respond(
                try await service.capture(
                    tenant: try context.tenant, paymentId: try id(context), amount: body.amount?.value)
            ).response
        }
        operations.post(":id/complete") { request, context in
            let body = try JSONIO.decode(CompleteBody.self, from: try await JSONIO.body(request, limit: bodyLimit))
            return try respond(
                try await service.complete(
                    tenant: try context.tenant, paymentId: try id(context), paymentData: body.paymentData)
            ).response
        }
        operations.post(":id/cancel") { _, context in
            try respond(try await service.cancel(tenant: try context.tenant, paymentId: try id(context))).response
        }
        group.group().add(middleware: idempotency.resuming(.createdRefund)).post(":id/refunds") { request, context in
            let tenant = try context.tenant
            let body = try JSONIO.decode(AmountBody.self, from: try await JSONIO.body(request, limit: bodyLimit))
            let refund = try await service.refund(
                tenant: tenant, paymentId: try id(context), amount: body.amount?.value, reason: body.reason)
            PaymentMetrics.refunded(status: refund.status.rawValue, tenant: tenant)
            return try Encoded(.created, RefundResource(refund)).response
        }
        group.get(":id/session") { _, context in
            let session = try await service.session(tenant: try context.tenant, paymentId: try id(context))
            return JSONIO.response(.ok, ClientSessionResource(session, withAction: true))
        }
        operations.post(":id/session") { _, context in
            try respond(try await service.renewSession(tenant: try context.tenant, paymentId: try id(context)))
                .response
        }
        group.post(":id/sync") { _, context in
            let record = try await service.sync(tenant: try context.tenant, paymentId: try id(context))
            return JSONIO.response(.ok, PaymentResource(record, now: service.now()))
        }
    }

    func id(_ context: AppContext) throws -> String { try Self.paymentId(context) }

    /// The payment named in the path; `404` for an id no payment can have.
    static func paymentId(_ context: AppContext) throws -> String {
        guard let id = context.parameters.get("id"), id.count <= 64 else { throw CoreError.notFound("payment") }
        return id.removingPercentEncoding ?? id
    }

    private func respond(_ record: PaymentRecord, status: HTTPResponse.Status = .ok) throws -> Encoded {
        try Encoded(status, PaymentResource(record, now: service.now()))
    }

    private func create(_ request: Request, _ context: AppContext) async throws -> Response {
        let tenant = try context.tenant
        let payment = try Self.newPayment(try await JSONIO.body(request, limit: bodyLimit))
        let record = try await service.create(tenant: tenant, payment)
        PaymentMetrics.created(
            plugin: record.lastAttempt?.pluginId, outcome: record.lastAttempt?.outcome?.rawValue,
            status: record.payment.status.rawValue, tenant: tenant)
        return try respond(record, status: .created).response
    }

    /// The response a create stores for its `Idempotency-Key`: the payment, or the merchant's error.
    func createdResponse(_ result: Result<PaymentRecord, CoreError>) throws -> (status: Int, body: Data) {
        switch result {
        case .success(let record):
            let encoded = try respond(record, status: .created)
            return (Int(encoded.status.code), encoded.data)
        case .failure(let error):
            let api = APIError(error)
            return (Int(api.status.code), try IdempotencyMiddleware.envelope(api))
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
        let tenant = try context.tenant
        let query = request.uri.queryParameters
        let limit = try ListQuery.limit(query.get("limit"))
        let page = try await records.records(
            tenant: tenant, reference: query.get("reference"), startingAfter: query.get("starting_after"),
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

    /// The response that answers it.
    var response: Response { JSONIO.raw(status, data) }
}
