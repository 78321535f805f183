import ProviderKit

/// The credential fields of a Citcon account, as the manifest declares them: both secret.
enum CitconCredential: String, CredentialFields {
    case privateKey = "private_key"
    case ipnSecret = "ipn_secret"

    var isSecret: Bool { true }
}
