import Foundation

/// Finds, in one pass over a JSON text, the byte ranges of the scalar values (strings, numbers, `true`,
/// `false`, `null`) of members whose names are secret, so that they can be replaced where they stand. An
/// object or array under a secret name is searched, not replaced.
///
/// It reads strict JSON with member names in plain ASCII. Anything else (not JSON, nesting deeper than
/// ``maximumDepth``, a name written with an escape or a byte outside ASCII) ends the scan with nil, and
/// the caller reads the body in full instead.
struct SecretValueScan {
    /// The deepest nesting read.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let names: Set<String>
    private var index = 0
    private var ranges: [Range<Int>] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, names: Set<String>) {
        self.bytes = bytes
        self.names = names
    }

    /// The ranges of `body`'s scalar values whose member names, in lowercase, are among `names` (in
    /// order). Nil when the body is not read (see above).
    static func ranges(in body: Data, names: Set<String>) -> [Range<Int>]? {
        body.withUnsafeBytes { raw in
            var scan = SecretValueScan(bytes: raw.bindMemory(to: UInt8.self), names: names)
            guard scan.value(depth: 0) else { return nil }
            scan.skipBlanks()
            return scan.index == scan.bytes.count ? scan.ranges : nil
        }
    }

    private mutating func value(depth: Int) -> Bool {
        skipBlanks()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> Bool {
        guard depth < Self.maximumDepth else { return false }
        index += 1
        skipBlanks()
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string(), name.plain
            else { return false }
            skipBlanks()
            guard take(UInt8(ascii: ":")) else { return false }
            skipBlanks()
            guard index < bytes.count else { return false }
            let start = index
            let container = bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")
            guard value(depth: depth + 1) else { return false }
            if !container, names.contains(lowercased(name.range)) { ranges.append(start..<index) }
            skipBlanks()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth < Self.maximumDepth else { return false }
        index += 1
        skipBlanks()
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard value(depth: depth + 1) else { return false }
            skipBlanks()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// A string at `index`: the range of its contents, and whether they are plain ASCII without escapes.
    private mutating func string() -> (range: Range<Int>, plain: Bool)? {
        index += 1
        let start = index
        var plain = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start..<(index - 1), plain)
            }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { plain = false }
            if byte == UInt8(ascii: "\\") {
                plain = false
                index += 1
            }
            index += 1
        }
        return nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A number in JSON's grammar.
    private mutating func number() -> Bool {
        _ = take(UInt8(ascii: "-"))
        if !take(UInt8(ascii: "0")) { guard digits() else { return false } }
        if take(UInt8(ascii: ".")) { guard digits() else { return false } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { return false }
        }
        return true
    }

    /// One or more digits.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index > start
    }

    private func lowercased(_ range: Range<Int>) -> String {
        String(
            unsafeUninitializedCapacity: range.count,
            initializingUTF8With: { buffer in
                for (offset, byte) in bytes[range].enumerated() {
                    buffer[offset] =
                        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
                }
                return range.count
            })
    }

    /// Takes `byte` if it comes next.
    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipBlanks() {
        while index < bytes.count, NotificationRedaction.isBlank(bytes[index]) { index += 1 }
    }
}
