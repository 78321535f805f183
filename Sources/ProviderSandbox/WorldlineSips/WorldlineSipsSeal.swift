import SwitchyardCrypto

/// The seals of Worldline Sips 2.0 as the emulator computes them.
///
/// JSON messages: lowercase hex HMAC-SHA256 keyed with the merchant's secret (UTF-8) over the seal
/// string, which concatenates the values of every present, non-null member in byte order of the member
/// names (`keyVersion`, `sealAlgorithm` and `seal` left out at the top level). A nested object adds its
/// own members the same way at its name's place; an array adds its elements in order. Scalars are taken
/// as written: a string's text, a number's literal, `true`/`false`.
///
/// POST messages (automatic responses): over the `Data` text as sent, either HMAC-SHA256 or
/// SHA-256 of `Data` followed by the secret, both lowercase hex.
enum WorldlineSipsSeal {
    /// Top-level members never sealed.
    static let excluded: Set<String> = ["keyVersion", "sealAlgorithm", "seal"]

    /// The seal string of a JSON object (or of any value).
    static func sealString(of value: SipsJSON) -> String {
        var out = ""
        if case .object(let pairs) = value {
            append(.object(pairs.filter { !excluded.contains($0.0) }), to: &out)
        } else {
            append(value, to: &out)
        }
        return out
    }

    private static func append(_ value: SipsJSON, to out: inout String) {
        switch value {
        case .string(let text): out += text
        case .number(let literal): out += literal
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: break
        case .array(let values):
            for element in values { append(element, to: &out) }
        case .object(let pairs):
            let sorted = pairs.enumerated().sorted { lhs, rhs in
                if lhs.element.0 == rhs.element.0 { return lhs.offset < rhs.offset }
                return lhs.element.0.utf8.lexicographicallyPrecedes(rhs.element.0.utf8)
            }
            for (_, pair) in sorted { append(pair.1, to: &out) }
        }
    }

    /// The `seal` of a JSON message.
    static func seal(of value: SipsJSON, secret: String) -> String {
        hmac(sealString(of: value), secret: secret)
    }

    /// Lowercase hex HMAC-SHA256 of `text` keyed with `secret`.
    static func hmac(_ text: String, secret: String) -> String {
        Hex.encode(HMAC.sha256(key: secret, message: text))
    }

    /// Whether `seal` (hex, any case) is the seal of `value`; compared in constant time.
    static func verify(_ seal: String, of value: SipsJSON, secret: String) -> Bool {
        constantTimeEquals(seal.lowercased(), self.seal(of: value, secret: secret))
    }

    /// The `Seal` of a POST message over `data` (the `Data` text exactly as sent).
    static func postSeal(data: String, secret: String, algorithm: WorldlineSipsAutomaticResponseSeal) -> String {
        switch algorithm {
        case .hmacSHA256: hmac(data, secret: secret)
        case .sha256: Hex.encode(SHA2.sha256(data + secret))
        }
    }

    /// A JSON object with its `seal` appended.
    static func sealed(_ object: SipsObject, secret: String) -> SipsJSON {
        var sealed = object
        sealed.put("seal", .string(seal(of: object.json, secret: secret)))
        return sealed.json
    }
}
