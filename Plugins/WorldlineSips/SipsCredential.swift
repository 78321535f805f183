import ProviderKit

/// The credential fields of a Worldline Sips account, as the manifest declares them.
enum SipsCredential: String, CredentialFields {
    case merchantId = "merchant_id"
    case secretKey = "secret_key"
    case keyVersion = "key_version"

    var isSecret: Bool { self == .secretKey }
    var isRequired: Bool { self != .keyVersion }
}
