import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    /// `count` random bytes (empty when `count` is zero or negative).
    public static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            RAND_bytes(buffer.baseAddress, Int32(buffer.count))
        }
        // A DRBG that cannot produce output leaves no safe way to continue.
        precondition(ok == 1, "RAND_bytes failed")
        return out
    }

    /// A random token of `bytes` random bytes, encoded as unpadded base64url (URL- and header-safe).
    public static func token(bytes: Int) -> String {
        Base64URL.encode(self.bytes(bytes))
    }
}
