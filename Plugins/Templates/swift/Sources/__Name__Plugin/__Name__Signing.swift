#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SwitchyardCrypto

/// The __Name__ notification signature: the lowercase hex HMAC-SHA256 of the raw body under the account's
/// `webhook_secret`, in the `X-Signature` header.
enum __Name__Signing {
    /// The header that carries the signature.
    static let header = "X-Signature"

    /// The signature of `body`. The secret never leaves this function.
    static func signature(body: Data, secret: String) -> String {
        Hex.encode(HMAC.sha256(key: secret, message: Array(body)))
    }

    /// Whether `provided` is the signature of `body`, compared in constant time (case and surrounding blanks
    /// of the hex text ignored).
    static func verify(body: Data, signature provided: String, secret: String) -> Bool {
        let expected = signature(body: body, secret: secret)
        let provided = provided.trimmingBlanks().lowercased()
        return constantTimeEquals(Array(expected.utf8), Array(provided.utf8))
    }
}
