#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JWE compact serialisation (RFC 7516) with key management `RSA-OAEP` (SHA-1) or `RSA-OAEP-256`
/// and content encryption `A256CBC-HS512`.
public enum JWE {
    /// The only supported content encryption algorithm.
    public static let contentEncryption = "A256CBC-HS512"

    /// Encrypts `plaintext` for `recipient`.
    ///
    /// - Parameters:
    ///   - plaintext: the payload.
    ///   - recipient: the RSA public key that wraps the random content encryption key.
    ///   - keyId: the `kid` header value, or `nil` to omit it.
    ///   - algorithm: `RSA-OAEP` (SHA-1) or `RSA-OAEP-256`.
    ///   - headerText: the exact protected header JSON to use (e.g. to emulate an SDK that adds spaces);
    ///     it must parse, and its `alg`, `enc` and `kid` must agree with the other arguments.
    ///     When `nil`, a compact header with sorted keys is produced.
    /// - Returns: `header.encryptedKey.iv.ciphertext.tag`, each part base64url without padding.
    public static func encrypt(
        plaintext: [UInt8],
        recipient: RSAPublicKey,
        keyId: String?,
        algorithm: String = "RSA-OAEP",
        headerText: String? = nil
    ) throws -> String {
        let digest = try oaepDigest(for: algorithm)
        let header = Header(alg: algorithm, enc: contentEncryption, kid: keyId)
        let protectedHeader: String
        if let headerText {
            let parsed = try parseHeader(Array(headerText.utf8))
            guard parsed == header else {
                throw CryptoError.invalidInput("JWE header text disagrees with the algorithm or key id")
            }
            protectedHeader = headerText
        } else {
            protectedHeader = try header.compactJSON()
        }
        let encodedHeader = Base64URL.encode(protectedHeader)
        var contentKey = SecureRandom.bytes(A256CBCHS512.keyByteCount)
        defer { contentKey.zeroize() }
        let iv = SecureRandom.bytes(A256CBCHS512.ivByteCount)
        let encryptedKey = try recipient.encryptOAEP(contentKey, digest: digest)
        let (ciphertext, tag) = try A256CBCHS512.encrypt(
            key: contentKey, iv: iv, plaintext: plaintext, aad: Array(encodedHeader.utf8)
        )
        return [
            encodedHeader, Base64URL.encode(encryptedKey), Base64URL.encode(iv),
            Base64URL.encode(ciphertext), Base64URL.encode(tag),
        ].joined(separator: ".")
    }

    /// Decrypts a compact JWE.
    ///
    /// The protected header is parsed as JSON (its exact bytes only matter as the AAD). A content key that
    /// fails to unwrap is replaced by a random one, so every forgery fails the same way, at the tag check.
    ///
    /// - Returns: the parsed header and the plaintext.
    /// - Throws: ``CryptoError/invalidInput(_:)`` for a malformed token or an unsupported header;
    ///   ``CryptoError/authenticationFailed`` when the key unwrap or the tag check fails.
    public static func decrypt(_ compact: String, privateKey: RSAPrivateKey) throws -> (
        header: Header, plaintext: [UInt8]
    ) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 else { throw CryptoError.invalidInput("JWE compact form needs 5 parts") }
        guard let headerBytes = Base64URL.decode(parts[0]),
            let encryptedKey = Base64URL.decode(parts[1]),
            let iv = Base64URL.decode(parts[2]),
            let ciphertext = Base64URL.decode(parts[3]),
            let tag = Base64URL.decode(parts[4])
        else { throw CryptoError.invalidInput("JWE part is not base64url") }
        let header = try parseHeader(headerBytes)
        let digest = try oaepDigest(for: header.alg)
        guard header.enc == contentEncryption else { throw CryptoError.invalidInput("unsupported JWE enc") }
        guard iv.count == A256CBCHS512.ivByteCount else { throw CryptoError.invalidInput("JWE IV must be 16 bytes") }
        var contentKey = (try? privateKey.decryptOAEP(encryptedKey, digest: digest)) ?? []
        if contentKey.count != A256CBCHS512.keyByteCount {
            contentKey = SecureRandom.bytes(A256CBCHS512.keyByteCount)
        }
        defer { contentKey.zeroize() }
        let plaintext = try A256CBCHS512.decrypt(
            key: contentKey, iv: iv, ciphertext: ciphertext, tag: tag, aad: Array(parts[0].utf8)
        )
        return (header, plaintext)
    }

    static func oaepDigest(for algorithm: String) throws -> OAEPDigest {
        switch algorithm {
        case "RSA-OAEP": .sha1
        case "RSA-OAEP-256": .sha256
        default: throw CryptoError.invalidInput("unsupported JWE alg")
        }
    }

    static func parseHeader(_ bytes: [UInt8]) throws -> Header {
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: Data(bytes)),
            let extensions = try? decoder.decode(HeaderExtensions.self, from: Data(bytes))
        else { throw CryptoError.invalidInput("JWE header is not a valid JSON object") }
        guard extensions.zip == nil, extensions.crit == nil else {
            throw CryptoError.invalidInput("JWE header uses unsupported zip or crit")
        }
        return header
    }
}

/// Header members that are recognised only to refuse them (compression, critical extensions).
private struct HeaderExtensions: Decodable {
    var zip: String?
    var crit: [String]?
}
