import Foundation
import ProviderKit

/// Something whose status changes are announced as webhook events (`<family>.<status>`).
public protocol WebhookSubject: Sendable {
    /// `payment`, `refund` or `payment_method`.
    static var eventFamily: String { get }
    var tenantId: UUID { get }
    /// The id events name as their object's.
    var subjectId: String { get }
    /// The status, as its raw value.
    var eventStatus: String { get }
    /// What the event carries: never session data or provider tokens.
    var snapshot: any Encodable { get }
    /// Test or live (``Livemode``).
    var livemode: Bool { get }
}

extension Payment: WebhookSubject {
    public static let eventFamily = "payment"
    public var subjectId: String { id }
    public var eventStatus: String { status.rawValue }
    public var snapshot: any Encodable { PaymentSnapshot(self) }
}

extension Refund: WebhookSubject {
    public static let eventFamily = "refund"
    public var subjectId: String { id }
    public var eventStatus: String { status.rawValue }
    public var snapshot: any Encodable { RefundSnapshot(self) }
}

extension StoredPaymentMethod: WebhookSubject {
    public static let eventFamily = "payment_method"
    public var subjectId: String { id }
    public var eventStatus: String { status.rawValue }
    public var snapshot: any Encodable { PaymentMethodSnapshot(self) }
}

extension WebhookEvent {
    /// The event announcing `subject`'s new status, or nil when it did not change from `previous` (the
    /// stored status's raw value; nil for a new object).
    public static func statusChanged<Subject: WebhookSubject>(
        from previous: String?, to subject: Subject, id: String, at now: Date
    ) throws -> WebhookEvent? {
        guard previous != subject.eventStatus else { return nil }
        return try make(
            id: id, tenant: subject.tenantId, type: "\(Subject.eventFamily).\(subject.eventStatus)",
            objectId: subject.subjectId, object: subject.snapshot, livemode: subject.livemode, at: now)
    }

    /// The `ping` event a tenant sends to one endpoint to test it: it names the endpoint and nothing else.
    public static func ping(endpoint: WebhookEndpoint, id: String, at now: Date) throws -> WebhookEvent {
        try make(
            id: id, tenant: endpoint.tenantId, type: WebhookEventType.ping, objectId: endpoint.id,
            object: EndpointSnapshot(id: endpoint.id, url: endpoint.url), livemode: endpoint.livemode, at: now)
    }

    /// The event rendered once, in the oldest API version, with the place of that version's name
    /// (``versionSlot``): the store puts the tenant's pinned version there.
    static func make<Object: Encodable>(
        id: String, tenant: UUID, type: String, objectId: String, object: Object, livemode: Bool, at now: Date
    ) throws -> WebhookEvent {
        let encoder = CompactJSONEncoder(dates: .iso8601, escapesSlashes: false)
        let version = APIVersion.oldest.name
        let envelope = Envelope(
            id: id, type: type, apiVersion: version, createdAt: now, livemode: livemode, data: .init(object: object))
        let payload = try encoder.encode(envelope)
        return WebhookEvent(
            id: id, tenantId: tenant, type: type, objectId: objectId, payload: payload, createdAt: now,
            livemode: livemode, versionSlot: versionSlot(in: payload, version: version))
    }

    /// Where `version` is the value of the envelope's `api_version`: its first `"api_version":"…"` pair.
    /// The envelope writes it before `data`, and the `id` and `type` before it are JSON strings, which
    /// cannot hold a bare quote, so no other object's field can come first.
    package static func versionSlot(in payload: Data, version: String) -> Range<Int>? {
        let key: StaticString = #","api_version":""#
        let name = Array(version.utf8)
        return payload.withUnsafeBytes { bytes -> Range<Int>? in
            let keyBytes = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            var start = 0
            // The pair comes after the envelope's first few fields: a plain scan from the front finds it.
            while start + keyBytes.count + name.count < bytes.count {
                if bytes[start] == keyBytes[0],
                    memcmp(bytes.baseAddress! + start, keyBytes.baseAddress!, keyBytes.count) == 0
                {
                    let value = start + keyBytes.count
                    let end = value + name.count
                    guard
                        name.withUnsafeBytes({ memcmp(bytes.baseAddress! + value, $0.baseAddress!, name.count) }) == 0,
                        bytes[end] == UInt8(ascii: "\"")
                    else { return nil }
                    return value..<end
                }
                start += 1
            }
            return nil
        }
    }

    private struct Envelope<Object: Encodable>: Encodable {
        struct Body: Encodable { var object: Object }
        var id: String
        var object = "event"
        var type: String
        /// The API version the event is rendered in: the tenant's pinned one.
        var apiVersion: String
        var createdAt: Date
        var livemode: Bool
        var data: Body

        enum CodingKeys: String, CodingKey {
            case id, object, type, data, livemode
            case apiVersion = "api_version"
            case createdAt = "created_at"
        }
    }
}

/// What a `ping` event carries: the endpoint it tests.
struct EndpointSnapshot: Encodable {
    var id: String
    var object = "webhook_endpoint"
    var url: String
}

/// A failure as events carry it.
struct FailureSnapshot: Encodable {
    var code: String
    var message: String?

    static func make(_ code: String?, _ message: String?) -> FailureSnapshot? {
        code.map { FailureSnapshot(code: $0, message: message) }
    }
}

/// What a payment event carries: the payment's state, never its session data or provider tokens.
struct PaymentSnapshot: Encodable {
    var id: String
    var object = "payment"
    var status: String
    var amount: Int64
    var currency: String
    var country: String
    var method: String
    var reference: String
    var customer: String?
    var amountCaptured: Int64
    var amountRefunded: Int64
    var amountDisputed: Int64
    var providerAccount: String?
    var paymentMethod: String?
    var failure: FailureSnapshot?
    var metadata: Metadata
    var description: String?
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, status, amount, currency, country, method, reference, customer, failure, metadata
        case description
        case amountCaptured = "amount_captured"
        case amountRefunded = "amount_refunded"
        case amountDisputed = "amount_disputed"
        case providerAccount = "provider_account"
        case paymentMethod = "payment_method"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ p: Payment) {
        id = p.id
        status = p.status.rawValue
        amount = p.amount
        currency = p.currency
        country = p.country
        method = p.method
        reference = p.reference
        customer = p.customerId
        amountCaptured = p.amountCaptured
        amountRefunded = p.amountRefunded
        amountDisputed = p.amountDisputed
        providerAccount = p.providerAccountId?.uuidString.lowercased()
        paymentMethod = p.paymentMethodId
        failure = .make(p.failureCode, p.failureMessage)
        metadata = p.metadata
        description = p.merchantDescription
        createdAt = p.createdAt
        updatedAt = p.updatedAt
    }
}

/// What a refund event carries.
struct RefundSnapshot: Encodable {
    var id: String
    var object = "refund"
    var payment: String
    var status: String
    var amount: Int64
    var currency: String
    var reason: String?
    var failure: FailureSnapshot?
    var metadata: Metadata
    var description: String?
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, payment, status, amount, currency, reason, failure, metadata, description
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ r: Refund) {
        id = r.id
        payment = r.paymentId
        status = r.status.rawValue
        amount = r.amount
        currency = r.currency
        reason = r.reason
        failure = .make(r.failureCode, r.failureMessage)
        metadata = r.metadata
        description = r.merchantDescription
        createdAt = r.createdAt
        updatedAt = r.updatedAt
    }
}

/// What a payment-method event carries: masked details only, never the provider's token.
struct PaymentMethodSnapshot: Encodable {
    var id: String
    var object = "payment_method"
    var customer: String
    var status: String
    var kind: String
    var method: String
    var providerAccount: String
    var display: CredentialDisplay?
    var failure: FailureSnapshot?
    var expiresAt: Date?
    var metadata: Metadata
    var description: String?
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, customer, status, kind, method, display, failure, metadata, description
        case providerAccount = "provider_account"
        case expiresAt = "expires_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ c: StoredPaymentMethod) {
        id = c.id
        customer = c.customerId
        status = c.status.rawValue
        kind = c.kind
        method = c.paymentMethodName
        providerAccount = c.accountId.uuidString.lowercased()
        display = c.display
        failure = .make(c.failureCode, c.failureMessage)
        expiresAt = c.expiresAt
        metadata = c.metadata
        description = c.merchantDescription
        createdAt = c.createdAt
        updatedAt = c.updatedAt
    }
}
