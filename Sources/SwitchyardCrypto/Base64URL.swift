/// Base64url (RFC 4648 §5), as used by JOSE and tokens.
public enum Base64URL {
    /// Encodes `bytes` with the URL-safe alphabet and no padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64Codec.url.encode(bytes, padded: false)
    }

    /// Encodes the UTF-8 bytes of `string` (no padding).
    public static func encode(_ string: String) -> String {
        encode(string.utf8)
    }

    /// Decodes base64url text, with or without `=` padding.
    ///
    /// - Returns: `nil` for characters outside the URL-safe alphabet, whitespace, a bad length or non-zero trailing bits.
    public static func decode(_ s: String) -> [UInt8]? {
        Base64Codec.url.decode(s)
    }
}
