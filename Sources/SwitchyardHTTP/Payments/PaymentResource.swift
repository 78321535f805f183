import Foundation
import ProviderKit
import SwitchyardCore

/// A payment as the merchant API shows it.
struct PaymentResource: Encodable {
    struct NextActionBody: Encodable {
        var type: String
        var data: [String: JSONValue]
        var expiresAt: Date?

        enum CodingKeys: String, CodingKey {
            case type, data
            case expiresAt = "expires_at"
        }
    }

    /// Why the payment failed; for a decline, our normalised reason and the provider's own code too.
    struct Failure: Encodable {
        var code: String
        var message: String
        var declineCode: String?
        var providerCode: String?

        enum CodingKeys: String, CodingKey {
            case code, message
            case declineCode = "decline_code"
            case providerCode = "provider_code"
        }
    }

    struct AttemptBody: Encodable {
        var id: String
        var sequence: Int
        var providerAccount: String
        var plugin: String
        var outcome: String?
        var providerPaymentId: String?
        var providerStatus: String?
        var code: String?
        /// For a declined attempt: our normalised reason (``DeclineCode``); `code` is the provider's.
        var declineCode: String?
        var message: String?
        var reason: String
        var startedAt: Date
        var finishedAt: Date?

        enum CodingKeys: String, CodingKey {
            case id, sequence, plugin, outcome, code, message, reason
            case declineCode = "decline_code"
            case providerAccount = "provider_account"
            case providerPaymentId = "provider_payment_id"
            case providerStatus = "provider_status"
            case startedAt = "started_at"
            case finishedAt = "finished_at"
        }
    }

    struct OperationBody: Encodable {
        var id: String
        var kind: String
        var amount: Int64?
        var outcome: String?
        var code: String?
        var createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id, kind, amount, outcome, code
            case createdAt = "created_at"
        }
    }

    var id: String
    var object = "payment"
    var status: String
    var amount: Int64
    var currency: String
    var country: String
    var method: String
    var reference: String
    var captureMode: String
    var customer: String?
    var paymentMethod: String?
    var savedPaymentMethod: String?
    var amountCaptured: Int64
    var amountRefunded: Int64
    var amountDisputed: Int64
    var nextAction: NextActionBody?
    /// The client session of a payment waiting for the app, live or expired.
    var session: ClientSessionResource?
    var failure: Failure?
    /// Nil when a list leaves it out (see ``PaymentExpansion``).
    var attempts: [AttemptBody]?
    var refunds: [RefundResource]
    /// Nil when a list leaves it out (see ``PaymentExpansion``).
    var operations: [OperationBody]?
    var routing: RoutingDecision?
    var metadata: Metadata
    var description: String?
    var livemode: Bool
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, status, amount, currency, country, method, reference, customer, failure, attempts, refunds
        case operations, routing, session, metadata, description, livemode
        case captureMode = "capture_mode"
        case amountCaptured = "amount_captured"
        case amountRefunded = "amount_refunded"
        case amountDisputed = "amount_disputed"
        case nextAction = "next_action"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case paymentMethod = "payment_method"
        case savedPaymentMethod = "saved_payment_method"
    }

    /// The payment as seen at `now`: `next_action` only while its client session is live.
    init(_ record: PaymentRecord, now: Date) {
        let p = record.payment
        id = p.id
        status = p.status.rawValue
        amount = p.amount
        currency = p.currency
        country = p.country
        method = p.method
        reference = p.reference
        captureMode = p.captureMode.rawValue
        customer = p.customerId
        paymentMethod = p.paymentMethodId
        savedPaymentMethod = p.savedPaymentMethodId
        amountCaptured = p.amountCaptured
        amountRefunded = p.amountRefunded
        amountDisputed = p.amountDisputed
        if let live = record.session(at: now) {
            session = ClientSessionResource(live, withAction: false)
            nextAction = live.status == .live ? ClientSessionResource.action(live) : nil
        } else {
            nextAction = p.nextAction.map { NextActionBody(type: $0.type, data: $0.data, expiresAt: $0.expiresAt) }
        }
        failure = p.failureCode.map { Failure(code: $0, message: p.failureMessage ?? "") }
        if p.status == .failed, let declined = record.attempts.last, declined.outcome == .declined {
            // A decline learnt from a notification or a sync leaves its code on the payment only.
            let providerCode = declined.code ?? p.failureCode
            failure?.declineCode = DeclineCode.normalised(providerCode)
            failure?.providerCode = providerCode
        }
        attempts = record.attempts.map {
            AttemptBody(
                id: $0.id, sequence: $0.sequence, providerAccount: $0.accountId.uuidString.lowercased(),
                plugin: $0.pluginId,
                outcome: $0.outcome?.rawValue, providerPaymentId: $0.providerPaymentId,
                providerStatus: $0.providerStatus,
                code: $0.code, declineCode: $0.outcome == .declined ? DeclineCode.normalised($0.code) : nil,
                message: $0.message, reason: $0.reason, startedAt: $0.startedAt, finishedAt: $0.finishedAt)
        }
        refunds = record.refunds.map(RefundResource.init)
        operations = record.operations.map {
            OperationBody(
                id: $0.id, kind: $0.kind.rawValue, amount: $0.amount, outcome: $0.outcome?.rawValue, code: $0.code,
                createdAt: $0.createdAt)
        }
        routing = p.routing
        metadata = p.metadata
        description = p.merchantDescription
        livemode = p.livemode
        createdAt = p.createdAt
        updatedAt = p.updatedAt
    }
}

/// A refund as the merchant API shows it.
struct RefundResource: Encodable {
    var id: String
    var object = "refund"
    var payment: String
    var amount: Int64
    var currency: String
    var status: String
    var reason: String?
    var providerRefundId: String?
    var failureCode: String?
    var metadata: Metadata
    var description: String?
    var livemode: Bool
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, payment, amount, currency, status, reason, metadata, description, livemode
        case providerRefundId = "provider_refund_id"
        case failureCode = "failure_code"
        case createdAt = "created_at"
    }

    init(_ r: Refund) {
        id = r.id
        payment = r.paymentId
        amount = r.amount
        currency = r.currency
        status = r.status.rawValue
        reason = r.reason
        providerRefundId = r.providerRefundId
        failureCode = r.failureCode
        metadata = r.metadata
        description = r.merchantDescription
        livemode = r.livemode
        createdAt = r.createdAt
    }
}

/// The query parameters every list route shares.
enum ListQuery {
    /// The page size a list request asks for (`?limit=`, ``PageRequest/defaultLimit`` by default); `400
    /// invalid_limit` outside 1…``PageRequest/maximumLimit``.
    static func limit(_ text: String?) throws -> Int {
        guard let limit = Int(text ?? "\(PageRequest.defaultLimit)"), (1...PageRequest.maximumLimit).contains(limit)
        else {
            throw APIError(
                .invalidLimit, "limit must be an integer from 1 to \(PageRequest.maximumLimit)", param: "limit")
        }
        return limit
    }
}

/// A list with cursor pagination.
struct ListResource<Item: Encodable>: Encodable {

    var object = "list"
    var data: [Item]
    var hasMore: Bool
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case object, data
        case hasMore = "has_more"
        case nextCursor = "next_cursor"
    }
}
