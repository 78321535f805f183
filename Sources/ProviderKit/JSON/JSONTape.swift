#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JSON document read in one pass into a flat list of nodes, for ``CompactJSONDecoder``.
///
/// Each node is a value; an array's or object's members follow it, an object's as key and value in turn, and
/// every node records where its subtree ends, so a member is skipped without reading it. Strings and numbers
/// stay bytes of the document until a value asks for them.
///
/// It reads strict JSON only. A document it declines (``read(_:)`` is nil) is left to `JSONDecoder`: one
/// that is not JSON, or that holds what `JSONDecoder` treats in its own way (a byte-order mark or UTF-16,
/// an object with a repeated key or an escaped key, nesting deeper than `JSONDecoder` allows).
struct JSONTape {
    /// What a node is.
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, escapedString, array, object
    }

    /// One value: its kind, its bytes (strings without the quotes), the members of an array or object (for a
    /// string: 1 when it has a byte outside ASCII), and the index after its subtree.
    struct Node {
        var kind: Kind
        var start: Int
        var end: Int
        var count: Int
        var next: Int
    }

    /// The document's bytes.
    let bytes: [UInt8]
    /// The nodes, the document's value first.
    private(set) var nodes: [Node] = []

    /// The deepest nesting read (`JSONDecoder` refuses deeper).
    static let maximumDepth = 512

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The tape of `bytes`; nil when they are not strict JSON of the kinds above.
    static func read(_ bytes: [UInt8]) -> JSONTape? {
        var tape = JSONTape(bytes: bytes)
        tape.nodes.reserveCapacity(32)
        var parser = Parser(bytes: tape.bytes)
        guard parser.value(into: &tape.nodes, depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == tape.bytes.count ? tape : nil
    }

    /// Whether the bytes of the string node at `node` equal `key`'s UTF-8 (an unescaped string only).
    func string(at node: Int, equals key: String) -> Bool {
        let item = nodes[node]
        var key = key
        return key.withUTF8 { utf8 in
            guard utf8.count == item.end - item.start else { return false }
            return bytes.withUnsafeBufferPointer { all in
                for offset in 0..<utf8.count where all[item.start + offset] != utf8[offset] { return false }
                return true
            }
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        /// Reads one value and its members into `nodes`.
        mutating func value(into nodes: inout [Node], depth: Int) -> Bool {
            skipWhitespace()
            guard index < bytes.count else { return false }
            let at = nodes.count
            switch bytes[index] {
            case UInt8(ascii: "{"):
                return container(.object, closing: UInt8(ascii: "}"), into: &nodes, depth: depth) { parser, nodes in
                    parser.skipWhitespace()
                    // A key is an unescaped string (`JSONDecoder` compares escaped ones after unescaping) of
                    // valid UTF-8 (`JSONDecoder` reads every key of an object it decodes, and refuses one that
                    // is not, even when the value never asks for it).
                    return parser.index < parser.bytes.count && parser.bytes[parser.index] == UInt8(ascii: "\"")
                        && parser.string(into: &nodes) && nodes[nodes.count - 1].kind == .string
                        && parser.isUTF8(nodes[nodes.count - 1])
                        && parser.consume(UInt8(ascii: ":")) && parser.value(into: &nodes, depth: depth + 1)
                } && !hasRepeatedKey(nodes, object: at)
            case UInt8(ascii: "["):
                return container(.array, closing: UInt8(ascii: "]"), into: &nodes, depth: depth) { parser, nodes in
                    parser.value(into: &nodes, depth: depth + 1)
                }
            case UInt8(ascii: "\""):
                return string(into: &nodes)
            case UInt8(ascii: "t"):
                return literal("true", .true, into: &nodes)
            case UInt8(ascii: "f"):
                return literal("false", .false, into: &nodes)
            case UInt8(ascii: "n"):
                return literal("null", .null, into: &nodes)
            default:
                return number(into: &nodes)
            }
        }

        /// An array or object: its node, then each member `member` reads, up to `closing`.
        private mutating func container(
            _ kind: Kind, closing: UInt8, into nodes: inout [Node], depth: Int,
            _ member: (inout Parser, inout [Node]) -> Bool
        ) -> Bool {
            guard depth < JSONTape.maximumDepth else { return false }
            let at = nodes.count
            index += 1
            nodes.append(Node(kind: kind, start: index, end: index, count: 0, next: 0))
            var members = 0
            skipWhitespace()
            if index < bytes.count, bytes[index] == closing {
                index += 1
            } else {
                repeat {
                    guard member(&self, &nodes) else { return false }
                    members += 1
                } while consume(UInt8(ascii: ","))
                guard consume(closing) else { return false }
            }
            nodes[at].count = members
            nodes[at].end = index
            nodes[at].next = nodes.count
            return true
        }

        /// Whether a string node's bytes are valid UTF-8 (ASCII always is).
        func isUTF8(_ node: Node) -> Bool {
            node.count == 0 || JSONEscapes.text(bytes[node.start..<node.end]) != nil
        }

        /// Whether the object at `object` names a key twice.
        private func hasRepeatedKey(_ nodes: [Node], object: Int) -> Bool {
            var keys: [Int] = []
            keys.reserveCapacity(nodes[object].count)
            var member = object + 1
            while member < nodes[object].next {
                keys.append(member)
                member = nodes[member + 1].next
            }
            if keys.count > 16 {
                var seen = Set<ArraySlice<UInt8>>()
                for key in keys where !seen.insert(bytes[nodes[key].start..<nodes[key].end]).inserted {
                    return true
                }
                return false
            }
            for (position, key) in keys.enumerated() {
                let a = bytes[nodes[key].start..<nodes[key].end]
                for other in keys[..<position] where bytes[nodes[other].start..<nodes[other].end] == a {
                    return true
                }
            }
            return false
        }

        /// A string: checks its escapes and that it has no raw control character; UTF-8 is checked when a
        /// value reads it.
        mutating func string(into nodes: inout [Node]) -> Bool {
            index += 1
            let start = index
            var escaped = false
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    nodes.append(
                        Node(
                            kind: escaped ? .escapedString : .string, start: start, end: index, count: ascii ? 0 : 1,
                            next: nodes.count + 1))
                    index += 1
                    return true
                }
                if byte < 0x20 { return false }
                if byte >= 0x80 { ascii = false }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                    guard index < bytes.count else { return false }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        guard index + 4 < bytes.count,
                            bytes[(index + 1)...(index + 4)].allSatisfy({ RelayJSONReader.hexDigit($0) != nil })
                        else { return false }
                        index += 4
                    default: return false
                    }
                }
                index += 1
            }
            return false
        }

        /// A number as JSON writes it: `-`, digits without a leading zero, a fraction, an exponent.
        private mutating func number(into nodes: inout [Node]) -> Bool {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integral = index
            guard digits(), index - integral == 1 || bytes[integral] != UInt8(ascii: "0") else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() else { return false }
            }
            nodes.append(Node(kind: .number, start: start, end: index, count: 0, next: nodes.count + 1))
            return true
        }

        /// One or more decimal digits.
        private mutating func digits() -> Bool {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > start
        }

        private mutating func literal(_ word: StaticString, _ kind: Kind, into nodes: inout [Node]) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            nodes.append(Node(kind: kind, start: index, end: index + count, count: 0, next: nodes.count + 1))
            index += count
            return true
        }

        /// Skips whitespace, then takes `byte` if it comes next.
        mutating func consume(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
        }
    }
}
