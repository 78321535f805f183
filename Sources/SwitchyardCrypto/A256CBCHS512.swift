import COpenSSL

/// AES-256-CBC with HMAC-SHA-512 (JOSE `A256CBC-HS512`, RFC 7518 §5.2.5).
///
/// The 64-byte key is the MAC key (first 32 bytes) followed by the AES key (last 32 bytes).
/// The tag is the first 32 bytes of HMAC-SHA-512(MAC key, AAD ‖ IV ‖ ciphertext ‖ AL), where AL is
/// the AAD length in bits as a 64-bit big-endian integer.
public enum A256CBCHS512 {
    /// Key length in bytes.
    public static let keyByteCount = 64
    /// IV length in bytes.
    public static let ivByteCount = 16
    /// Tag length in bytes.
    public static let tagByteCount = 32

    /// Encrypts `plaintext` (PKCS#7 padded) and computes the tag over `aad`, the IV and the ciphertext.
    public static func encrypt(
        key: [UInt8],
        iv: [UInt8],
        plaintext: [UInt8],
        aad: [UInt8]
    ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        try validate(key: key, iv: iv)
        let context = try CipherContext()
        try context.initialise(cipher: EVP_aes_256_cbc(), key: Array(key[32..<64]), iv: iv, encrypt: true)
        let ciphertext = try context.process(plaintext, finalFailure: .openssl("AES-CBC encryption failed"))
        return (ciphertext, tag(macKey: key[0..<32], iv: iv, ciphertext: ciphertext, aad: aad))
    }

    /// Verifies the tag in constant time, then decrypts.
    ///
    /// - Throws: ``CryptoError/authenticationFailed`` when the tag does not match (nothing is decrypted then);
    ///   ``CryptoError/invalidInput(_:)`` when an authentic ciphertext has invalid padding.
    public static func decrypt(
        key: [UInt8],
        iv: [UInt8],
        ciphertext: [UInt8],
        tag: [UInt8],
        aad: [UInt8]
    ) throws -> [UInt8] {
        try validate(key: key, iv: iv)
        let expected = self.tag(macKey: key[0..<32], iv: iv, ciphertext: ciphertext, aad: aad)
        guard constantTimeEquals(expected, tag) else { throw CryptoError.authenticationFailed }
        guard !ciphertext.isEmpty, ciphertext.count % ivByteCount == 0 else {
            throw CryptoError.invalidInput("ciphertext length is not a positive multiple of 16")
        }
        let context = try CipherContext()
        try context.initialise(cipher: EVP_aes_256_cbc(), key: Array(key[32..<64]), iv: iv, encrypt: false)
        return try context.process(ciphertext, finalFailure: .invalidInput("ciphertext padding is invalid"))
    }

    private static func tag(macKey: ArraySlice<UInt8>, iv: [UInt8], ciphertext: [UInt8], aad: [UInt8]) -> [UInt8] {
        let aadBits = UInt64(aad.count) &* 8
        var input = [UInt8]()
        input.reserveCapacity(aad.count + iv.count + ciphertext.count + 8)
        input += aad
        input += iv
        input += ciphertext
        input += (0..<8).map { UInt8(truncatingIfNeeded: aadBits >> (56 - 8 * UInt64($0))) }
        return Array(HMAC.sha512(key: macKey, message: input).prefix(tagByteCount))
    }

    private static func validate(key: [UInt8], iv: [UInt8]) throws {
        guard key.count == keyByteCount else { throw CryptoError.invalidKey("A256CBC-HS512 key must be 64 bytes") }
        guard iv.count == ivByteCount else { throw CryptoError.invalidInput("A256CBC-HS512 IV must be 16 bytes") }
    }
}
