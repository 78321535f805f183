/// A base64 alphabet with strict decoding: no whitespace, correct optional padding, zero trailing bits.
struct Base64Codec: Sendable {
    static let standard = Base64Codec(alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    static let url = Base64Codec(alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private let encodeTable: [UInt8]
    private let decodeTable: [UInt8]
    private static let invalid: UInt8 = 0xFF
    private static let pad = UInt8(ascii: "=")

    private init(alphabet: String) {
        encodeTable = Array(alphabet.utf8)
        var table = [UInt8](repeating: Self.invalid, count: 256)
        for (index, character) in encodeTable.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        decodeTable = table
    }

    func encode(_ bytes: some Collection<UInt8>, padded: Bool) -> String {
        let input = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            appendSextets(of: chunk, count: 4, to: &out)
            index += 3
        }
        switch input.count - index {
        case 1:
            appendSextets(of: UInt32(input[index]) << 16, count: 2, to: &out)
            if padded { out.append(contentsOf: [Self.pad, Self.pad]) }
        case 2:
            appendSextets(of: UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8, count: 3, to: &out)
            if padded { out.append(Self.pad) }
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes text with or without `=` padding; `nil` on any invalid character, length or non-zero trailing bits.
    func decode(_ text: String) -> [UInt8]? {
        var input = Array(text.utf8)
        if let firstPad = input.firstIndex(of: Self.pad) {
            let padding = input.count - firstPad
            guard input.count % 4 == 0, padding <= 2, input[firstPad...].allSatisfy({ $0 == Self.pad }) else {
                return nil
            }
            input.removeLast(padding)
        }
        guard input.count % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in input {
            let value = decodeTable[Int(character)]
            guard value != Self.invalid else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return out
    }

    private func appendSextets(of chunk: UInt32, count: Int, to out: inout [UInt8]) {
        for position in 0..<count {
            out.append(encodeTable[Int(chunk >> UInt32(18 - 6 * position) & 0x3F)])
        }
    }
}
