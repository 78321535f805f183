import COpenSSL

/// The digest used by RSA-OAEP, for both the label hash and MGF1.
public enum OAEPDigest: Sendable {
    /// SHA-1 (JOSE `RSA-OAEP`).
    case sha1
    /// SHA-256 (JOSE `RSA-OAEP-256`).
    case sha256

    var md: OpaquePointer? {
        switch self {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        }
    }

    var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        }
    }
}
