/// The __Name__ calls the plugin makes; the classification of an answer depends on it.
enum __Name__Call: String, Sendable {
    /// `POST /v1/payments`.
    case createPayment = "create_payment"
    /// `GET /v1/payments/{id}`.
    case getPayment = "get_payment"
    /// `POST /v1/payments/{id}/refunds`.
    case createRefund = "create_refund"
}
