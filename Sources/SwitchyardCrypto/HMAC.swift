import COpenSSL

/// HMAC (RFC 2104) over the SHA-2 digests.
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        mac(key: key, message: message, md: EVP_sha256())
    }

    /// HMAC-SHA512 of `message` under `key` (64 bytes).
    public static func sha512(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        mac(key: key, message: message, md: EVP_sha512())
    }

    /// HMAC-SHA256 with a UTF-8 key and a UTF-8 message.
    public static func sha256(key: String, message: String) -> [UInt8] {
        sha256(key: key.utf8, message: message.utf8)
    }

    /// HMAC-SHA256 with a UTF-8 key over raw bytes (e.g. a request body).
    public static func sha256(key: String, message: some Collection<UInt8>) -> [UInt8] {
        sha256(key: key.utf8, message: message)
    }

    /// HMAC-SHA256 with a raw key over a UTF-8 message.
    public static func sha256(key: some Collection<UInt8>, message: String) -> [UInt8] {
        sha256(key: key, message: message.utf8)
    }

    /// HMAC-SHA512 with a UTF-8 key and a UTF-8 message.
    public static func sha512(key: String, message: String) -> [UInt8] {
        sha512(key: key.utf8, message: message.utf8)
    }

    /// HMAC-SHA512 with a UTF-8 key over raw bytes.
    public static func sha512(key: String, message: some Collection<UInt8>) -> [UInt8] {
        sha512(key: key.utf8, message: message)
    }

    /// HMAC-SHA512 with a raw key over a UTF-8 message.
    public static func sha512(key: some Collection<UInt8>, message: String) -> [UInt8] {
        sha512(key: key, message: message.utf8)
    }

    private static func mac(
        key: some Collection<UInt8>,
        message: some Collection<UInt8>,
        md: OpaquePointer?
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = withContiguousBytes(key) { keyPointer, keyCount in
            withContiguousBytes(message) { messagePointer, messageCount in
                COpenSSL.HMAC(md, keyPointer, Int32(keyCount), messagePointer, messageCount, &out, &length)
            }
        }
        // HMAC into a sufficiently large buffer only fails when memory allocation fails.
        precondition(result != nil, "HMAC failed")
        return Array(out.prefix(Int(length)))
    }
}
