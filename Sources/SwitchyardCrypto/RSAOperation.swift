import COpenSSL

/// The OpenSSL calls behind RS256 signatures and RSA-OAEP, shared by the public and private key types.
enum RSAOperation {
    /// Signs `message` with RSASSA-PKCS1-v1_5 over SHA-256.
    static func signSHA256(_ pkey: OpaquePointer, _ message: some Collection<UInt8>) throws -> [UInt8] {
        let context = try DigestContext()
        var pkeyContext: OpaquePointer? = nil
        guard EVP_DigestSignInit(context.pointer, &pkeyContext, EVP_sha256(), nil, pkey) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_DigestSignInit")
        }
        guard EVP_PKEY_CTX_set_rsa_padding(pkeyContext, RSA_PKCS1_PADDING) > 0 else {
            throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_set_rsa_padding")
        }
        return try withContiguousBytes(message) { pointer, count in
            var length = 0
            guard EVP_DigestSign(context.pointer, nil, &length, pointer, count) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_DigestSign")
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context.pointer, &signature, &length, pointer, count) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_DigestSign")
            }
            return Array(signature.prefix(length))
        }
    }

    /// Checks an RSASSA-PKCS1-v1_5 SHA-256 signature; any failure is `false` and leaves the error queue empty.
    static func verifySHA256(_ pkey: OpaquePointer, signature: [UInt8], message: some Collection<UInt8>) -> Bool {
        defer { OpenSSLErrorQueue.clear() }
        guard !signature.isEmpty, let context = try? DigestContext() else { return false }
        var pkeyContext: OpaquePointer? = nil
        guard EVP_DigestVerifyInit(context.pointer, &pkeyContext, EVP_sha256(), nil, pkey) == 1,
            EVP_PKEY_CTX_set_rsa_padding(pkeyContext, RSA_PKCS1_PADDING) > 0
        else { return false }
        return withContiguousBytes(message) { pointer, count in
            EVP_DigestVerify(context.pointer, signature, signature.count, pointer, count) == 1
        }
    }

    /// RSA-OAEP encryption with `digest` for both the OAEP hash and MGF1.
    static func encryptOAEP(_ pkey: OpaquePointer, _ plaintext: [UInt8], digest: OAEPDigest) throws -> [UInt8] {
        let maximum = Int(EVP_PKEY_get_size(pkey)) - 2 * digest.byteCount - 2
        guard plaintext.count <= maximum else {
            throw CryptoError.invalidInput("plaintext longer than \(maximum) bytes for this RSA-OAEP key")
        }
        let context = try oaepContext(pkey, digest: digest, encrypt: true)
        defer { EVP_PKEY_CTX_free(context) }
        return try withContiguousBytes(plaintext) { pointer, count in
            var length = 0
            guard EVP_PKEY_encrypt(context, nil, &length, pointer, count) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_PKEY_encrypt")
            }
            var ciphertext = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_encrypt(context, &ciphertext, &length, pointer, count) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_PKEY_encrypt")
            }
            return Array(ciphertext.prefix(length))
        }
    }

    /// RSA-OAEP decryption; every decoding failure is reported the same way, as ``CryptoError/authenticationFailed``.
    static func decryptOAEP(_ pkey: OpaquePointer, _ ciphertext: [UInt8], digest: OAEPDigest) throws -> [UInt8] {
        guard ciphertext.count == Int(EVP_PKEY_get_size(pkey)) else { throw CryptoError.authenticationFailed }
        let context = try oaepContext(pkey, digest: digest, encrypt: false)
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_decrypt(context, nil, &length, ciphertext, ciphertext.count) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_PKEY_decrypt")
        }
        var plaintext = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_decrypt(context, &plaintext, &length, ciphertext, ciphertext.count) == 1 else {
            plaintext.zeroize()
            OpenSSLErrorQueue.clear()
            throw CryptoError.authenticationFailed
        }
        let result = Array(plaintext.prefix(length))
        plaintext.zeroize()
        return result
    }

    private static func oaepContext(_ pkey: OpaquePointer, digest: OAEPDigest, encrypt: Bool) throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw OpenSSLErrorQueue.error("EVP_PKEY_CTX_new") }
        let initialised = encrypt ? EVP_PKEY_encrypt_init(context) : EVP_PKEY_decrypt_init(context)
        guard initialised == 1,
            EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) > 0,
            EVP_PKEY_CTX_set_rsa_oaep_md(context, digest.md) > 0,
            EVP_PKEY_CTX_set_rsa_mgf1_md(context, digest.md) > 0
        else {
            EVP_PKEY_CTX_free(context)
            throw OpenSSLErrorQueue.error("RSA-OAEP setup")
        }
        return context
    }
}

/// An owned `EVP_MD_CTX`, freed on deinit.
final class DigestContext {
    let pointer: OpaquePointer

    init() throws {
        guard let pointer = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_MD_CTX_new") }
        self.pointer = pointer
    }

    deinit {
        EVP_MD_CTX_free(pointer)
    }
}
