#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `application/x-www-form-urlencoded` bodies and percent-encoding.
public enum FormEncoding {
    /// The fields of `k1=v1&k2=v2…` in order, percent-decoded (`+` a space when `plusIsSpace`); a key without
    /// `=` has an empty value. Nil for an empty key or a malformed escape. Repeated keys are all kept.
    public static func pairs(_ text: String, plusIsSpace: Bool = true) -> [(key: String, value: String)]? {
        var pairs: [(key: String, value: String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = decodeComponent(pieces[0], plusIsSpace: plusIsSpace), !key.isEmpty,
                let value = pieces.count > 1 ? decodeComponent(pieces[1], plusIsSpace: plusIsSpace) : ""
            else { return nil }
            pairs.append((key: key, value: value))
        }
        return pairs
    }

    /// The fields of a form body by name; nil when ``pairs(_:plusIsSpace:)`` is, or a name repeats.
    public static func fields(_ text: String, plusIsSpace: Bool = true) -> [String: String]? {
        guard let pairs = pairs(text, plusIsSpace: plusIsSpace) else { return nil }
        var fields: [String: String] = [:]
        for pair in pairs {
            guard fields[pair.key] == nil else { return nil }
            fields[pair.key] = pair.value
        }
        return fields
    }

    /// One form component: `+` as a space when `plusIsSpace`, then percent-escapes; nil for a bad escape.
    public static func decodeComponent(_ component: some StringProtocol, plusIsSpace: Bool = true) -> String? {
        let text = plusIsSpace ? String(component).replacing("+", with: " ") : String(component)
        return percentDecode(text)
    }

    /// Percent-encodes like Python's `quote_plus`: letters, digits and `_.-~` stay, a space becomes `+`, every
    /// other byte becomes `%XX` in upper case (so `+` → `%2B`, `/` → `%2F`, `=` → `%3D`).
    public static func quotePlus(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: true) { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "~"):
                true
            default: false
            }
        }
    }

    /// `text`'s UTF-8 bytes, those `keeping` accepts as they are, the others as `%XX` (upper-case digits); a
    /// blank as `+` when `spaceAsPlus`.
    package static func percentEncode(
        _ text: String, spaceAsPlus: Bool = false, keeping: (UInt8) -> Bool
    ) -> String {
        let digits = Self.upperHexDigits
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeping(byte) {
                out.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hexadecimal digits, upper case.
    package static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Decodes `%XX` escapes; a literal `+` stays `+` (so an unencoded base64 value survives). Nil for a
    /// malformed escape or bytes that are not UTF-8.
    public static func percentDecode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
