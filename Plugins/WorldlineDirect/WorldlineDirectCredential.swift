import ProviderKit

/// The credential fields of a Worldline Direct account, as the manifest declares them.
enum WorldlineDirectCredential: String, CredentialFields {
    case merchantId = "merchant_id"
    case apiKeyId = "api_key_id"
    case secretApiKey = "secret_api_key"
    /// The optional pair that verifies webhooks.
    case webhookKeyId = "webhook_key_id", webhookSecret = "webhook_secret"

    var isSecret: Bool { self == .secretApiKey || self == .webhookSecret }
    var isRequired: Bool { self != .webhookKeyId && self != .webhookSecret }
}
