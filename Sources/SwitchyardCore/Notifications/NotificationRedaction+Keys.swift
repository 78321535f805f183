import Foundation

extension NotificationRedaction {
    /// Whether a JSON body may have a member whose name `isSecret` (given the name in lowercase): `false`
    /// only when every member name of the text was read and none is. A name with an escape or a byte outside
    /// ASCII counts as secret, so that the full reading decides it. A text that is not JSON may give either
    /// answer; the full reading then keeps the body as it is.
    static func mayHaveSecretMember(_ body: Data, isSecret: (String) -> Bool) -> Bool {
        body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                let start = index + 1
                var plain = true
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        plain = false
                        index += 2
                    } else {
                        if bytes[index] >= 0x80 { plain = false }
                        index += 1
                    }
                }
                guard index < bytes.count else { return false }
                let end = index
                index += 1
                var next = index
                while next < bytes.count, isBlank(bytes[next]) { next += 1 }
                guard next < bytes.count, bytes[next] == UInt8(ascii: ":") else { continue }
                guard plain else { return true }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if isSecret(name.lowercased()) { return true }
            }
            return false
        }
    }

    /// JSON's four blanks.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
