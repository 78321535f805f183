/// Standard base64 (RFC 4648 §4), as used by provider signature headers.
public enum Base64 {
    /// Encodes `bytes` with the standard alphabet and `=` padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64Codec.standard.encode(bytes, padded: true)
    }

    /// Decodes standard base64 text, with or without `=` padding.
    ///
    /// - Returns: `nil` for characters outside the alphabet, whitespace, a bad length or non-zero trailing bits.
    public static func decode(_ s: String) -> [UInt8]? {
        Base64Codec.standard.decode(s)
    }
}

extension Array where Element == UInt8 {
    /// Standard padded base64 of these bytes.
    public var base64: String { Base64.encode(self) }

    /// Unpadded base64url of these bytes.
    public var base64URL: String { Base64URL.encode(self) }

    /// Lowercase hexadecimal of these bytes.
    public var hex: String { Hex.encode(self) }

    /// Decodes standard base64 (padding optional); `nil` when malformed.
    public init?(base64: String) {
        guard let bytes = Base64.decode(base64) else { return nil }
        self = bytes
    }

    /// Decodes base64url (padding optional); `nil` when malformed.
    public init?(base64URL: String) {
        guard let bytes = Base64URL.decode(base64URL) else { return nil }
        self = bytes
    }

    /// Decodes hexadecimal text; `nil` when malformed.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex) else { return nil }
        self = bytes
    }
}
