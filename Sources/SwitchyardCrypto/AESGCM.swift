import COpenSSL

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag.
public enum AESGCM {
    /// Key length in bytes.
    public static let keyByteCount = 32
    /// Nonce length in bytes.
    public static let nonceByteCount = 12
    /// Tag length in bytes.
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, also authenticating `aad`.
    ///
    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - nonce: 12 bytes, never reused with the same key; a random nonce is drawn when `nil`.
    ///   - plaintext: the data to encrypt.
    ///   - aad: additional data authenticated but not encrypted.
    /// - Returns: the nonce used, the ciphertext (same length as the plaintext) and the tag.
    public static func seal(
        key: [UInt8],
        nonce: [UInt8]? = nil,
        plaintext: [UInt8],
        aad: [UInt8] = []
    ) throws -> (nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
        let nonce = nonce ?? SecureRandom.bytes(nonceByteCount)
        try validate(key: key, nonce: nonce)
        let context = try CipherContext()
        try context.initialise(cipher: EVP_aes_256_gcm(), key: nil, iv: nil, encrypt: true)
        try context.control(EVP_CTRL_GCM_SET_IVLEN, Int32(nonceByteCount), nil)
        try context.initialise(cipher: nil, key: key, iv: nonce, encrypt: true)
        try context.updateAAD(aad)
        let ciphertext = try context.process(plaintext, finalFailure: .openssl("AES-GCM encryption failed"))
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        try context.control(EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), &tag)
        return (nonce, ciphertext, tag)
    }

    /// Verifies the tag and decrypts.
    ///
    /// - Throws: ``CryptoError/authenticationFailed`` when the tag does not match (any byte of key, nonce,
    ///   ciphertext, tag or AAD changed); ``CryptoError/invalidKey(_:)`` / ``CryptoError/invalidInput(_:)``
    ///   for wrong lengths.
    public static func open(
        key: [UInt8],
        nonce: [UInt8],
        ciphertext: [UInt8],
        tag: [UInt8],
        aad: [UInt8] = []
    ) throws -> [UInt8] {
        try validate(key: key, nonce: nonce)
        guard tag.count == tagByteCount else { throw CryptoError.authenticationFailed }
        let context = try CipherContext()
        try context.initialise(cipher: EVP_aes_256_gcm(), key: nil, iv: nil, encrypt: false)
        try context.control(EVP_CTRL_GCM_SET_IVLEN, Int32(nonceByteCount), nil)
        try context.initialise(cipher: nil, key: key, iv: nonce, encrypt: false)
        try context.updateAAD(aad)
        var expectedTag = tag
        try context.control(EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &expectedTag)
        return try context.process(ciphertext, finalFailure: .authenticationFailed)
    }

    private static func validate(key: [UInt8], nonce: [UInt8]) throws {
        guard key.count == keyByteCount else { throw CryptoError.invalidKey("AES-256-GCM key must be 32 bytes") }
        guard nonce.count == nonceByteCount else { throw CryptoError.invalidInput("AES-GCM nonce must be 12 bytes") }
    }
}
