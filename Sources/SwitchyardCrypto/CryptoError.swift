/// Errors thrown by SwitchyardCrypto.
///
/// Associated messages describe what was wrong (a length, a format, an OpenSSL reason) and never
/// contain key material, plaintext or secrets.
public enum CryptoError: Error, Sendable, Equatable {
    /// A key has the wrong length, format or type.
    case invalidKey(String)
    /// An input other than a key (nonce, IV, encoding, size) is malformed.
    case invalidInput(String)
    /// A tag, signature or padding check failed; the data must not be trusted.
    case authenticationFailed
    /// OpenSSL reported an unexpected failure; the message is OpenSSL's reason string.
    case openssl(String)
}

extension CryptoError: CustomStringConvertible {
    /// A stable machine-readable code: `invalid_key`, `invalid_input`, `authentication_failed` or `openssl`.
    public var code: String {
        switch self {
        case .invalidKey: "invalid_key"
        case .invalidInput: "invalid_input"
        case .authenticationFailed: "authentication_failed"
        case .openssl: "openssl"
        }
    }

    /// The code followed by the message; safe to log.
    public var description: String {
        switch self {
        case .invalidKey(let message), .invalidInput(let message), .openssl(let message):
            "\(code): \(message)"
        case .authenticationFailed:
            "\(code): authentication failed"
        }
    }
}
