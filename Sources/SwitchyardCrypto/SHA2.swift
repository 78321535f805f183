import COpenSSL

/// One-shot message digests (SHA-2 family, plus SHA-1 for legacy protocols).
public enum SHA2 {
    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        digest(data, EVP_sha256())
    }

    /// SHA-512 of `data` (64 bytes).
    public static func sha512(_ data: some Collection<UInt8>) -> [UInt8] {
        digest(data, EVP_sha512())
    }

    /// SHA-1 of `data` (20 bytes). Only for protocols that still require it; not collision resistant.
    public static func sha1(_ data: some Collection<UInt8>) -> [UInt8] {
        digest(data, EVP_sha1())
    }

    /// SHA-256 of the UTF-8 bytes of `string`.
    public static func sha256(_ string: String) -> [UInt8] {
        sha256(string.utf8)
    }

    /// SHA-512 of the UTF-8 bytes of `string`.
    public static func sha512(_ string: String) -> [UInt8] {
        sha512(string.utf8)
    }

    /// SHA-1 of the UTF-8 bytes of `string`.
    public static func sha1(_ string: String) -> [UInt8] {
        sha1(string.utf8)
    }

    /// Lowercase hex SHA-256 of the UTF-8 bytes of `string`.
    public static func sha256Hex(_ string: String) -> String {
        Hex.encode(sha256(string.utf8))
    }

    private static func digest(_ data: some Collection<UInt8>, _ md: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = withContiguousBytes(data) { pointer, count in
            EVP_Digest(pointer, count, &out, &length, md, nil)
        }
        // Hashing into a sufficiently large buffer only fails when memory allocation fails.
        precondition(ok == 1, "EVP_Digest failed")
        return Array(out.prefix(Int(length)))
    }
}
