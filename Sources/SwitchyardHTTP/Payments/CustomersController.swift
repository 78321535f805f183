import Foundation
import Hummingbird
import ProviderKit
import SwitchyardCore

/// The merchant API for customers' stored credentials: `/v1/customers/{customer}/payment-methods` and
/// `/v1/customers/{customer}/vaulting-sessions`.
struct CustomersController: Sendable {
    let service: PaymentService
    let bodyLimit: Int

    struct VaultingBody: Decodable {
        var providerAccount: UUID?
        var returnURL: String?
        var country: String?
        var metadata: [String: String]?
        var description: String?

        enum CodingKeys: String, CodingKey {
            case country, metadata, description
            case providerAccount = "provider_account"
            case returnURL = "return_url"
        }
    }

    /// Registers the routes on `merchant`, the `/v1` group of keys with the `payments` scope; vaulting
    /// sessions are created through `idempotency`.
    func register(on merchant: RouterGroup<AppContext>, idempotency: IdempotencyGate) {
        let group = merchant.group("customers/:customer")
        group.get("payment-methods") { request, context in
            let key = try context.apiKey
            var page = try ListQuery.page(
                request, statuses: StoredPaymentMethod.Status.allCases.map(\.rawValue))
            page.livemode = key.livemode
            let found = try await service.paymentMethods(
                tenant: key.tenantId, customerId: try customer(context), page: page)
            let now = service.now()
            return JSONIO.response(.ok, ListResource(found, page, id: \.id) { PaymentMethodResource($0, now: now) })
        }
        group.get("payment-methods/:pm") { request, context in
            let key = try context.apiKey
            let method = try await service.paymentMethod(
                tenant: key.tenantId, customerId: try customer(context), id: try paymentMethod(context),
                livemode: key.livemode)
            return JSONIO.response(.ok, PaymentMethodResource(method, now: service.now()))
        }
        group.delete("payment-methods/:pm") { request, context in
            let key = try context.apiKey
            let method = try await service.revokePaymentMethod(
                tenant: key.tenantId, customerId: try customer(context), id: try paymentMethod(context),
                livemode: key.livemode)
            return JSONIO.response(.ok, PaymentMethodResource(method, now: service.now()))
        }
        group.post("payment-methods/:pm/sync") { request, context in
            try await JSONIO.noFields(request, context, limit: bodyLimit)
            let key = try context.apiKey
            let method = try await service.syncPaymentMethod(
                tenant: key.tenantId, customerId: try customer(context), id: try paymentMethod(context),
                livemode: key.livemode)
            return JSONIO.response(.ok, PaymentMethodResource(method, now: service.now()))
        }
        group.post("vaulting-sessions") { request, context in
            try await idempotency.run(request, context, resume: .fresh) { json, _, _ in
                let body = json.data.isEmpty ? VaultingBody() : try json.decode(VaultingBody.self)
                if let returnURL = body.returnURL { try NewPayment.validateReturnURL(returnURL) }
                let key = try context.apiKey
                let method = try await service.createVaultingSession(
                    tenant: key.tenantId, customerId: try customer(context), accountId: body.providerAccount,
                    returnURL: body.returnURL, country: body.country, metadata: try Metadata(body.metadata ?? [:]),
                    description: body.description, livemode: key.livemode)
                return try .paymentMethod(method, now: service.now())
            }
        }
    }

    private func customer(_ context: AppContext) throws -> String {
        guard let customer = context.parameters.get("customer"), !customer.isEmpty, customer.count <= 128 else {
            throw CoreError.notFound("customer")
        }
        return customer.removingPercentEncoding ?? customer
    }

    private func paymentMethod(_ context: AppContext) throws -> String {
        guard let id = context.parameters.get("pm"), id.hasPrefix("pm_"), id.count <= 64 else {
            throw CoreError.notFound("payment method")
        }
        return id
    }
}

/// A page of a customer's payment methods.
/// A stored credential as the merchant API shows it: masked details only, never the provider's token.
struct PaymentMethodResource: Encodable {
    var id: String
    var object = "payment_method"
    var customer: String
    var status: String
    var kind: String
    var method: String
    var providerAccount: String
    var plugin: String
    var paymentMethodType: String?
    var display: CredentialDisplay?
    var nextAction: PaymentResource.NextActionBody?
    var session: ClientSessionResource?
    var originPayment: String?
    var failure: PaymentResource.Failure?
    var expiresAt: Date?
    var metadata: Metadata
    var description: String?
    var livemode: Bool
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, customer, status, kind, method, plugin, display, failure, session, metadata, description
        case livemode
        case providerAccount = "provider_account"
        case paymentMethodType = "payment_method_type"
        case nextAction = "next_action"
        case originPayment = "origin_payment"
        case expiresAt = "expires_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The credential as seen at `now`: `next_action` only while its vaulting session is live.
    init(_ credential: StoredPaymentMethod, now: Date) {
        id = credential.id
        customer = credential.customerId
        status = credential.status.rawValue
        kind = credential.kind
        method = credential.paymentMethodName
        providerAccount = credential.accountId.uuidString.lowercased()
        plugin = credential.pluginId
        paymentMethodType = credential.paymentMethodType
        display = credential.display
        if let session = ClientSession.of(credential, now: now) {
            self.session = ClientSessionResource(session, withAction: false)
            nextAction = session.status == .live ? ClientSessionResource.action(session) : nil
        }
        originPayment = credential.originPaymentId
        failure = credential.failureCode.map {
            PaymentResource.Failure(code: $0, message: credential.failureMessage ?? "")
        }
        expiresAt = credential.expiresAt
        metadata = credential.metadata
        description = credential.merchantDescription
        livemode = credential.livemode
        createdAt = credential.createdAt
        updatedAt = credential.updatedAt
    }
}
