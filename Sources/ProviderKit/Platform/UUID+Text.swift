#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension UUID {
    /// The 36-character text, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`: in upper case it is `uuidString`, in
    /// lower case PostgreSQL's form. Written here, not through the C library's formatter `uuidString` uses.
    package func text(uppercase: Bool = false) -> String {
        let digits = uppercase ? FormEncoding.upperHexDigits : Self.lowerHexDigits
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = digits[Int(byte >> 4)]
                    out[at + 1] = digits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    private static let lowerHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A UUID from its 36-character text, hexadecimal digits in either case and hyphens after the 8th, 12th,
    /// 16th and 20th, as `UUID(uuidString:)` reads it (without the C library's scanner, which also takes a
    /// blank or a sign inside a pair of digits); nil otherwise.
    package init?(text: some StringProtocol) {
        let parsed =
            text.utf8.withContiguousStorageIfAvailable(Self.parse)
            ?? Array(text.utf8).withUnsafeBufferPointer(Self.parse)
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> uuid_t? {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let complete = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard text[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard let high = RelayJSONReader.hexDigit(text[at]), let low = RelayJSONReader.hexDigit(text[at + 1])
                else { return false }
                out[index] = UInt8(high << 4 | low)
                at += 2
            }
            return true
        }
        return complete ? value : nil
    }
}
