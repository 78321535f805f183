import Foundation
import Hummingbird
import SwitchyardCore

/// `POST /v1/payment-options`: which methods a payment of a country, currency and amount can use now, and
/// why the tenant's other methods cannot. Decided as creating the payment would route it; nothing is stored
/// and no provider is called.
struct PaymentOptionsController: Sendable {
    let service: PaymentService
    let bodyLimit: Int

    struct QueryBody: Decodable {
        var amount: MinorUnits
        var currency: String
        var country: String
        var customer: String?
    }

    /// Registers the route on `merchant`, the `/v1` group of keys with the `payments` scope.
    func register(on merchant: RouterGroup<AppContext>) {
        merchant.post("payment-options") { request, context in
            let query = try Self.query(try await JSONIO.body(request, context, limit: bodyLimit))
            let key = try context.apiKey
            let options = try await service.paymentOptions(tenant: key.tenantId, query, livemode: key.livemode)
            return JSONIO.response(.ok, PaymentOptionsResource(options, query: query))
        }
    }

    /// A body decoded and validated like a payment's fields; throws a 4xx ``APIError`` or ``CoreError``.
    static func query(_ json: JSONBody) throws -> PaymentOptionsQuery {
        let body = try json.decode(QueryBody.self)
        return try PaymentOptionsQuery(
            amount: body.amount.value, currency: body.currency, country: body.country, customerId: body.customer)
    }
}
