import Foundation
import ProviderKit
import SwitchyardCore

/// What `POST /v1/payment-options` answers: the payment asked about, the methods it can use with the
/// account that would take it and what the app needs, and the tenant's other methods with why not.
struct PaymentOptionsResource: Encodable {
    struct Account: Encodable {
        var id: String
        var name: String
        var plugin: String
        var provider: String
        var environment: String
    }

    struct App: Encodable {
        var flow: String
        var sdk: String?
        var nextAction: String
        var sessionFields: [String]
        var paymentData: [String]

        enum CodingKeys: String, CodingKey {
            case flow, sdk
            case nextAction = "next_action"
            case sessionFields = "session_fields"
            case paymentData = "payment_data"
        }

        /// Encodes an absent SDK as `null`, so every entry has the same keys.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(flow, forKey: .flow)
            try c.encode(sdk, forKey: .sdk)
            try c.encode(nextAction, forKey: .nextAction)
            try c.encode(sessionFields, forKey: .sessionFields)
            try c.encode(paymentData, forKey: .paymentData)
        }
    }

    struct Option: Encodable {
        var method: String
        var account: Account
        var fallbacks: Int
        var storable: Bool
        var delayedCapture: Bool
        var app: App?

        enum CodingKeys: String, CodingKey {
            case method, account, fallbacks, storable, app
            case delayedCapture = "delayed_capture"
        }

        /// Encodes an undeclared app integration as `null`.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(method, forKey: .method)
            try c.encode(account, forKey: .account)
            try c.encode(fallbacks, forKey: .fallbacks)
            try c.encode(storable, forKey: .storable)
            try c.encode(delayedCapture, forKey: .delayedCapture)
            try c.encode(app, forKey: .app)
        }
    }

    struct Unavailable: Encodable {
        var method: String
        var reason: String
        var message: String
    }

    var amount: Int64
    var currency: String
    var country: String
    var customer: String?
    var routingVersion: Int?
    var options: [Option]
    var unavailable: [Unavailable]

    enum CodingKeys: String, CodingKey {
        case amount, currency, country, customer, options, unavailable
        case routingVersion = "routing_version"
    }

    init(_ options: PaymentOptions, query: PaymentOptionsQuery) {
        amount = query.amount
        currency = query.currency
        country = query.country
        customer = query.customerId
        routingVersion = options.version
        self.options = options.offered.map { offer in
            Option(
                method: offer.method,
                account: Account(
                    id: offer.accountId.uuidString.lowercased(), name: offer.accountName, plugin: offer.pluginId,
                    provider: offer.provider, environment: offer.environment),
                fallbacks: offer.fallbacks, storable: offer.support.storable,
                delayedCapture: offer.support.delayedCapture,
                app: offer.support.app.map {
                    App(
                        flow: $0.flow, sdk: $0.sdk, nextAction: $0.nextAction, sessionFields: $0.sessionFields,
                        paymentData: $0.paymentData)
                })
        }
        unavailable = options.excluded.map {
            Unavailable(method: $0.method, reason: $0.reason.rawValue, message: $0.message)
        }
    }

    /// Encodes absent values as `null`, so every answer has the same keys.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(amount, forKey: .amount)
        try c.encode(currency, forKey: .currency)
        try c.encode(country, forKey: .country)
        try c.encode(customer, forKey: .customer)
        try c.encode(routingVersion, forKey: .routingVersion)
        try c.encode(options, forKey: .options)
        try c.encode(unavailable, forKey: .unavailable)
    }
}
