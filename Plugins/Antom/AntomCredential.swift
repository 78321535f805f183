import ProviderKit

/// The credential fields of a Antom account, as the manifest declares them.
enum AntomCredential: String, CredentialFields {
    case clientId = "client_id"
    case privateKey = "private_key"
    case antomPublicKey = "antom_public_key"
    case keyVersion = "key_version"

    var isSecret: Bool { self == .privateKey }
    var isRequired: Bool { self != .keyVersion }
}
