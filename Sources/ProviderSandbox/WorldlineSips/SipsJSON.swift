/// A JSON value as the Sips emulator reads and writes it: numbers keep their literal text (the seal is
/// computed over the scalar values exactly as sent) and objects keep their members in order.
enum SipsJSON: Sendable, Equatable {
    case string(String)
    /// A number, as its literal JSON text (e.g. `2`, `-15`, `1.5e3`).
    case number(String)
    case bool(Bool)
    case null
    case array([SipsJSON])
    /// Members in the order they were written.
    case object([(String, SipsJSON)])

    static func == (lhs: SipsJSON, rhs: SipsJSON) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A number from an integer.
    static func int(_ value: Int64) -> SipsJSON { .number(String(value)) }

    /// The members of an object (the last one wins when a name repeats), nil for other values.
    var members: [String: SipsJSON]? {
        guard case .object(let pairs) = self else { return nil }
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    /// The string of a `.string` value.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a number written as an integer (no fraction, no exponent) that fits in 64 bits.
    var integerValue: Int64? {
        guard case .number(let literal) = self else { return nil }
        return Int64(literal)
    }

    // MARK: Writing

    /// The compact JSON text of the value.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The compact JSON bytes of the value.
    var bytes: [UInt8] { Array(text.utf8) }

    private func write(to out: inout String) {
        switch self {
        case .string(let value): Self.writeString(value, to: &out)
        case .number(let literal): out += literal
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(pair.0, to: &out)
                out += ":"
                pair.1.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Builds a JSON object member by member, leaving out absent values.
struct SipsObject: Sendable {
    private(set) var pairs: [(String, SipsJSON)] = []

    init() {}

    /// Adds `name` with a string value when `value` is not nil.
    mutating func set(_ name: String, _ value: String?) {
        guard let value else { return }
        put(name, .string(value))
    }

    /// Adds `name` with an integer value when `value` is not nil.
    mutating func set(_ name: String, _ value: Int64?) {
        guard let value else { return }
        put(name, .int(value))
    }

    /// Adds `name` with any JSON value.
    mutating func put(_ name: String, _ value: SipsJSON) {
        pairs.removeAll { $0.0 == name }
        pairs.append((name, value))
    }

    var json: SipsJSON { .object(pairs) }
}
