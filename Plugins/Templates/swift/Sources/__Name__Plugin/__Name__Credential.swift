import ProviderKit

/// The credential fields of a __Name__ account, as the manifest declares them: both secret, so the host
/// encrypts them at rest, never shows them and searches every log line for them.
enum __Name__Credential: String, CredentialFields {
    /// The API key, sent as a bearer token.
    case apiKey = "api_key"
    /// The key of the notifications' HMAC-SHA256 signature.
    case webhookSecret = "webhook_secret"

    var isSecret: Bool { true }
}
