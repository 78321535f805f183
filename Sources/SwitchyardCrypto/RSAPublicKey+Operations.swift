extension RSAPublicKey {
    /// Checks an RS256 signature (RSASSA-PKCS1-v1_5 with SHA-256) over `message`.
    ///
    /// - Returns: `true` only for a valid signature; malformed signatures are simply `false`.
    public func verifySHA256(signature: [UInt8], message: some Collection<UInt8>) -> Bool {
        RSAOperation.verifySHA256(pkey, signature: signature, message: message)
    }

    /// Checks an RS256 signature over the UTF-8 bytes of `message`.
    public func verifySHA256(signature: [UInt8], message: String) -> Bool {
        verifySHA256(signature: signature, message: message.utf8)
    }

    /// Encrypts `plaintext` with RSA-OAEP, using `digest` for both the OAEP hash and MGF1.
    ///
    /// - Throws: ``CryptoError/invalidInput(_:)`` when the plaintext is too long for the key.
    public func encryptOAEP(_ plaintext: [UInt8], digest: OAEPDigest) throws -> [UInt8] {
        try RSAOperation.encryptOAEP(pkey, plaintext, digest: digest)
    }
}
