import COpenSSL

/// An RSA private key (immutable `EVP_PKEY`), for RS256 signatures and RSA-OAEP decryption.
///
/// Safe to share between threads: every operation uses its own OpenSSL context.
public final class RSAPrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer

    /// The matching public key.
    public let publicKey: RSAPublicKey

    /// Takes ownership of `pkey` (freed on failure too) after checking that it is a usable RSA key.
    init(taking pkey: OpaquePointer) throws {
        do {
            try RSAKeyCheck.validate(pkey)
            self.publicKey = try RSAPublicKey(spkiDER: RSAKeyCheck.spki(of: pkey))
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// Loads an unencrypted PEM private key: PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` for encrypted keys (no password is ever prompted for),
    ///   public keys, non-RSA keys and unreadable text.
    public convenience init(pem: String) throws {
        let pkey = try MemoryBIO.reading(pem) { bio in
            guard let pkey = PEM_read_bio_PrivateKey(bio, nil, refusePassword, nil) else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.invalidKey("unreadable or encrypted RSA private key PEM")
            }
            return pkey
        }
        try self.init(taking: pkey)
    }

    /// Generates a new key with public exponent 65537.
    ///
    /// - Parameter bits: modulus size, 2048 to 8192.
    public static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        guard (2048...8192).contains(bits) else {
            throw CryptoError.invalidInput("RSA key size must be 2048 to 8192 bits")
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) > 0,
            EVP_PKEY_generate(context, &pkey) == 1,
            let pkey
        else { throw OpenSSLErrorQueue.error("RSA key generation") }
        return try RSAPrivateKey(taking: pkey)
    }

    /// The key as unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`). Treat the result as a secret.
    public var pkcs8PEM: String {
        // Writing a valid key into memory only fails when memory allocation fails.
        let text = try? MemoryBIO.writing("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pkey, nil, nil, 0, nil, nil)
        }
        guard let text else { preconditionFailure("PEM_write_bio_PrivateKey failed") }
        return text
    }

    /// The modulus size in bits.
    public var bits: Int { Int(EVP_PKEY_get_bits(pkey)) }

    /// Signs `message` with RS256 (RSASSA-PKCS1-v1_5 with SHA-256).
    public func signSHA256(_ message: some Collection<UInt8>) throws -> [UInt8] {
        try RSAOperation.signSHA256(pkey, message)
    }

    /// Signs the UTF-8 bytes of `message` with RS256.
    public func signSHA256(_ message: String) throws -> [UInt8] {
        try signSHA256(message.utf8)
    }

    /// Decrypts an RSA-OAEP ciphertext, using `digest` for both the OAEP hash and MGF1.
    ///
    /// - Throws: ``CryptoError/authenticationFailed`` for any ciphertext that does not decode under this key
    ///   and digest (the cause is deliberately not distinguished).
    public func decryptOAEP(_ ciphertext: [UInt8], digest: OAEPDigest) throws -> [UInt8] {
        try RSAOperation.decryptOAEP(pkey, ciphertext, digest: digest)
    }
}
