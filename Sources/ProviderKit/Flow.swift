/// The operations a provider plugin may support. The raw value is the `method` name on the C ABI.
public enum Flow: String, Codable, Sendable, CaseIterable, Hashable {
    /// Create a payment (authorise, and capture too when the capture mode is automatic).
    case authorize
    /// Capture an authorised payment, fully or partly.
    case capture
    /// Cancel (void) a payment that was not captured.
    case void
    /// Refund a captured payment, fully or partly.
    case refund
    /// Ask the provider for the payment's current state, by our reference or the provider's id.
    case sync
    /// Ask the provider for a refund's current state.
    case syncRefund
    /// Finish a payment with what the customer's app produced (e.g. encrypted card input), after
    /// `authorize` returned `pending` with a client session.
    case complete
    /// Create a session a merchant's mobile app hands to the provider's SDK.
    case clientSession
    /// Create a card-vaulting session for a merchant's app.
    case vaultingSession
    /// Ask the provider what became of a vaulting session.
    case syncVaulting
    /// Verify and interpret an inbound provider notification.
    case notification
    /// Obtain a provider access token for an account; the host caches it.
    case accessToken
    /// Ask the provider to revoke (delete) a customer's stored credential.
    case revokeCredential
    /// Send the merchant's answer to a dispute (accept it, or submit evidence) through the provider's API.
    case answerDispute
}
