import Foundation
import SwitchyardCore

/// A client session as the merchant API shows it: whose it is, until when, whether it is live and can
/// be renewed; with its `next_action` only while live.
struct ClientSessionResource: Encodable {
    var object = "client_session"
    var status: String
    var type: String
    var plugin: String?
    var providerAccount: String?
    var payment: String?
    var paymentMethod: String?
    var customer: String?
    var expiresAt: Date?
    var renewable: Bool
    var nextAction: PaymentResource.NextActionBody?

    enum CodingKeys: String, CodingKey {
        case object, status, type, plugin, payment, customer, renewable
        case providerAccount = "provider_account"
        case paymentMethod = "payment_method"
        case expiresAt = "expires_at"
        case nextAction = "next_action"
    }

    init(_ session: ClientSession, withAction: Bool) {
        status = session.status.rawValue
        type = session.action.type
        plugin = session.pluginId
        providerAccount = session.accountId?.uuidString.lowercased()
        switch session.owner {
        case .payment(let id): payment = id
        case .credential(let id, let customer):
            paymentMethod = id
            self.customer = customer
        }
        expiresAt = session.action.expiresAt
        renewable = session.renewable
        nextAction = withAction && session.status == .live ? Self.action(session) : nil
    }

    /// The session's `next_action`, exactly as the app needs it.
    static func action(_ session: ClientSession) -> PaymentResource.NextActionBody {
        PaymentResource.NextActionBody(
            type: session.action.type, data: session.action.data, expiresAt: session.action.expiresAt)
    }
}
