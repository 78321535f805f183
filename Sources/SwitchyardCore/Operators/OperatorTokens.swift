import Foundation

/// The shape of stored operators' tokens: `op_` and 48 hex digits from a secure random source (made by
/// the caller, so this stays free of I/O).
public enum OperatorTokens {
    /// The token made of `random` (24 bytes expected).
    public static func token(random: [UInt8]) -> String {
        "op_" + random.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `token` has the shape of a stored operator's token (worth looking up).
    public static func mayBeOperatorToken(_ token: String) -> Bool {
        token.hasPrefix("op_") && token.count == 51 && token.dropFirst(3).allSatisfy(\.isHexDigit)
    }
}
