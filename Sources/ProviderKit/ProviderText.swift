#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Making provider text and numbers safe to repeat in outcomes and logs.
public enum ProviderText {
    /// The longest provider code repeated as it is.
    public static let maxCodeLength = 64
    /// What a code that is not safe to repeat becomes.
    public static let unrecognisedCode = "UNRECOGNISED_CODE"
    /// What replaces a secret in provider text.
    public static let redaction = "[redacted]"

    /// A provider code safe to repeat: 1–64 ASCII letters, digits, `_`, `-` or `.` (surrounding blanks removed);
    /// anything else becomes ``unrecognisedCode`` (a body cannot smuggle text through a code); nil when absent
    /// or blank.
    public static func safeCode(_ code: String?) -> String? {
        guard let code = code?.trimmingBlanks(), !code.isEmpty else { return nil }
        let allowed =
            code.count <= maxCodeLength
            && code.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "_" || $0 == "-" || $0 == "." }
        return allowed ? code : unrecognisedCode
    }

    /// Whether a scalar is a blank: a tab or a Unicode space separator (category Zs).
    public static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// Whether a scalar is an ASCII letter or digit.
    public static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return false
        }
    }

    /// The text when it is only ASCII digits (surrounding blanks removed), else nil.
    public static func digits(_ text: String) -> String? {
        let text = text.trimmingBlanks()
        return !text.isEmpty && text.allSatisfy({ $0.isASCII && $0.isNumber }) ? text : nil
    }

    /// The value, or nil when absent or empty.
    public static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// Provider text with every secret of 4 characters or more replaced by ``redaction``, cut to `limit`
    /// characters.
    public static func scrub(_ text: String, secrets: [String], limit: Int = 200) -> String {
        var text = text
        for secret in secrets where secret.count >= 4 {
            text = text.replacing(secret, with: redaction)
        }
        return text.count > limit ? String(text.prefix(limit)) : text
    }
}
