import ProviderKit

/// The credential fields of a Citcon account, as the manifest declares them: both secret.
enum CitconCredential: String, CredentialFields {
    case privateKey = "private_key"
    case ipnSecret = "ipn_secret"

    var isSecret: Bool { true }

    /// The secret of the worked signing example in Citcon's IPN reference (`braintree`): anyone who read it
    /// can sign a notification with it, so a production account may not use it.
    var publicTestValues: [String] { self == .ipnSecret ? ["braintree"] : [] }
}
