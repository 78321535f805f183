import Foundation

@testable import SwitchyardCore

/// Generated request bodies for the "no trap reachable from input" tests: realistic templates of each
/// merchant and admin body, mutated at random (huge, negative and fractional numbers, exponents, NUL,
/// deep nesting, duplicate keys, wrong types, long strings, unicode, broken bytes). Deterministic for a
/// seed.
struct InputFuzzer {
    /// A JSON value kept as text pieces, so duplicate keys and odd number literals survive rendering.
    indirect enum Node {
        case literal(String)
        case string(String)
        case array([Node])
        case object([(String, Node)])

        var text: String {
            switch self {
            case .literal(let text): return text
            case .string(let value): return InputFuzzer.quote(value)
            case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
            case .object(let members):
                return "{" + members.map { InputFuzzer.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
            }
        }
    }

    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let numbers = [
        "0", "-0", "1", "-1", "12", "12.0", "1e3", "1E+3", "-1e-3", "0.5", "1234", "999999999999", "1000000000000",
        "2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "99999999999999999999999999999", "1e400", "-1e400", "1.7976931348623157e308",
        "4.9e-324", "1000000", "1000001", "3600000", "31536000000", "31536000001", "4611686018427387904",
        "9223372036854775000", "5000000000000000000",
    ]

    /// The 64-bit extremes, which overflow any sum or difference they take part in.
    static let extremes = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775806", "-9223372036854775807",
    ]

    static let strings = [
        "", "a", "US", "USD", "EUR", "JPY", "PH", "alipay", "card", "gcash", "order-1", "payments", "admin",
        "automatic", "manual", "payment.succeeded", "payment.*", "*", "citcon", "\u{0}", "a\u{0}b", "é", "😀",
        "\u{202E}rtl", "\u{FEFF}", "\n\t\r", "https://shop.example/back", "http://127.0.0.1:1/x",
        "https://user:pw@shop.example/", "javascript:alert(1)", "//no-scheme", "2030-01-01T00:00:00Z",
        "1970-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2030-13-45T99:99:99Z",
        "00000000-0000-0000-0000-000000000000", "pay_0000000000000000", "pm_1", "' OR 1=1 --", "%00", "../../etc",
    ]

    /// A random value of any type, nested at most `depth` levels.
    mutating func value(depth: Int = 3) -> Node {
        switch below(depth > 0 ? 8 : 5) {
        case 0: return .literal(pick(Self.numbers))
        case 1: return .string(pick(Self.strings))
        case 2: return .string(longString())
        case 3: return .literal(pick(["true", "false", "null"]))
        case 4: return .literal(String(Int64(bitPattern: next())))
        case 5: return .array((0..<below(4)).map { _ in value(depth: depth - 1) })
        case 6: return .object((0..<below(4)).map { _ in (pick(Self.strings), value(depth: depth - 1)) })
        default: return nested(below(40) + 1)
        }
    }

    mutating func longString() -> String {
        let unit = pick(["a", "é", "😀", "\u{0}", "\\", "\"", " "])
        return String(repeating: unit, count: pick([64, 129, 257, 2049, 5000]))
    }

    mutating func nested(_ depth: Int) -> Node {
        var node = Node.literal("1")
        for _ in 0..<depth { node = chance(50) ? .array([node]) : .object([("a", node)]) }
        return node
    }

    /// A mutated copy of `template`: often one leaf swapped for an edge value of its kind in place (so deep
    /// fields such as routing weights get them too), sometimes many leaves, then `rounds` structural
    /// mutations.
    mutating func mutate(_ template: Node, rounds: Int) -> Node {
        var node = template
        switch below(10) {
        case 0..<5:
            for _ in 0..<(chance(30) ? 2 : 1) {
                var target = below(leaves(node))
                node = substitute(node, at: &target)
            }
        case 5..<7:
            node = scramble(node)
        default:
            break
        }
        for _ in 0..<rounds { node = mutateOnce(node) }
        return node
    }

    private func leaves(_ node: Node) -> Int {
        switch node {
        case .object(let members): return members.reduce(0) { $0 + leaves($1.1) }
        case .array(let items): return items.reduce(0) { $0 + leaves($1) }
        default: return 1
        }
    }

    /// `node` with its `target`-th leaf (counted down as leaves are passed) replaced by an edge value.
    private mutating func substitute(_ node: Node, at target: inout Int) -> Node {
        switch node {
        case .object(let members):
            return .object(members.map { ($0.0, substitute($0.1, at: &target)) })
        case .array(let items):
            return .array(items.map { substitute($0, at: &target) })
        default:
            target -= 1
            return target == -1 ? edge(for: node) : node
        }
    }

    /// `node` with about a sixth of its leaves replaced by edge values.
    private mutating func scramble(_ node: Node) -> Node {
        switch node {
        case .object(let members): return .object(members.map { ($0.0, scramble($0.1)) })
        case .array(let items): return .array(items.map { scramble($0) })
        default: return chance(16) ? edge(for: node) : node
        }
    }

    /// An edge value for a leaf: a number for a number (mostly), anything otherwise.
    private mutating func edge(for leaf: Node) -> Node {
        if case .literal(let text) = leaf, text.first == "-" || text.first?.isNumber == true, chance(80) {
            return .literal(pick(chance(40) ? Self.extremes : Self.numbers))
        }
        return chance(50) ? .string(pick(Self.strings)) : value(depth: 1)
    }

    private mutating func mutateOnce(_ node: Node) -> Node {
        switch node {
        case .object(var members):
            if members.isEmpty || chance(10) { return chance(50) ? value() : .object([(pick(Self.strings), value())]) }
            let index = below(members.count)
            switch below(6) {
            case 0: members[index].1 = value()
            case 1: members.append(members[index])  // a duplicate key
            case 2: members.remove(at: index)
            case 3: members.append((pick(Self.strings), value()))
            default: members[index].1 = mutateOnce(members[index].1)
            }
            return .object(members)
        case .array(var items):
            if items.isEmpty || chance(20) { return chance(50) ? value() : .array([value()]) }
            let index = below(items.count)
            switch below(4) {
            case 0: items[index] = value()
            case 1: items.append(items[index])
            case 2: items.remove(at: index)
            default: items[index] = mutateOnce(items[index])
            }
            return .array(items)
        default:
            return value()
        }
    }

    /// The body's bytes, sometimes damaged at the byte level.
    mutating func bytes(_ node: Node) -> Data {
        var bytes = [UInt8](node.text.utf8)
        guard chance(15), !bytes.isEmpty else { return Data(bytes) }
        let index = below(bytes.count)
        switch below(5) {
        case 0: bytes = Array(bytes[..<index])
        case 1: bytes.insert(0, at: index)
        case 2: bytes.insert(pick([0xFF, 0xC3, 0x80, 0xED]), at: index)
        case 3: bytes[index] = UInt8(truncatingIfNeeded: next())
        default: bytes.insert(contentsOf: Array("\u{FEFF}".utf8), at: 0)
        }
        return Data(bytes)
    }

    static func quote(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
