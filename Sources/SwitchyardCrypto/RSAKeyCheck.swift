import COpenSSL

/// Checks shared by RSA public and private keys.
enum RSAKeyCheck {
    /// Smallest modulus accepted when loading a key.
    static let minimumBits: Int32 = 1024

    /// Requires a plain RSA key (not RSA-PSS-restricted, not another algorithm) of at least 1024 bits.
    static func validate(_ pkey: OpaquePointer) throws {
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA else { throw CryptoError.invalidKey("not an RSA key") }
        guard EVP_PKEY_get_bits(pkey) >= minimumBits else {
            throw CryptoError.invalidKey("RSA key shorter than \(minimumBits) bits")
        }
    }

    /// DER `SubjectPublicKeyInfo` of the public part of `pkey`.
    static func spki(of pkey: OpaquePointer) throws -> [UInt8] {
        let length = i2d_PUBKEY(pkey, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.error("i2d_PUBKEY") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var pointer = buffer.baseAddress
            return i2d_PUBKEY(pkey, &pointer)
        }
        guard written == length else { throw OpenSSLErrorQueue.error("i2d_PUBKEY") }
        return der
    }
}
