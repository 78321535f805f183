import Foundation

extension PaymentService {
    /// What one authorize attempt of a create needs to know.
    struct AttemptStep: Sendable {
        var payment: Payment
        var request: NewPayment
        var method: String
        var stored: StoredPaymentMethod?
        var account: ProviderAccount
        var sequence: Int
        var reason: String
        var claim: IdempotencyScope?
    }
}
