import ProviderKit

/// The credential fields of a Worldline Sips account, as the manifest declares them.
enum SipsCredential: String, CredentialFields {
    case merchantId = "merchant_id"
    case secretKey = "secret_key"
    case keyVersion = "key_version"

    var isSecret: Bool { self == .secretKey }
    var isRequired: Bool { self != .keyVersion }

    /// The SIMU test merchants and their published keys (`<merchantId>_KEY1`), documented for the test
    /// system: with them anyone can seal a notification, so a production account may not use them.
    var publicTestValues: [String] {
        switch self {
        case .merchantId: Self.simuMerchants
        case .secretKey: Self.simuMerchants.map { $0 + "_KEY1" }
        case .keyVersion: []
        }
    }

    static let simuMerchants = ["002001000000001", "002001000000002", "002001000000003"]
}
