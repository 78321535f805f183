/// A refusal answered with a Sips response code, and the field that caused it when there is one.
struct SipsFailure: Error, Sendable, Equatable {
    var code: String
    var field: String?

    init(_ code: String, field: String? = nil) {
        self.code = code
        self.field = field
    }

    /// `30`: missing or malformed field.
    static func format(_ field: String) -> SipsFailure { SipsFailure("30", field: field) }
}

/// The members of a request, read with the format checks every service makes (`30` + the field name).
struct SipsFields: Sendable {
    let members: [String: SipsJSON]

    init(_ members: [String: SipsJSON]) {
        self.members = members
    }

    /// A required, non-empty string.
    func string(_ name: String) throws(SipsFailure) -> String {
        guard let value = try optionalString(name) else { throw .format(name) }
        return value
    }

    /// A string when present and not null (an empty string counts as absent).
    func optionalString(_ name: String) throws(SipsFailure) -> String? {
        switch members[name] {
        case nil, .null: return nil
        case .string(let text): return text.isEmpty ? nil : text
        default: throw .format(name)
        }
    }

    /// A required JSON integer.
    func integer(_ name: String) throws(SipsFailure) -> Int64 {
        guard let value = try optionalInteger(name) else { throw .format(name) }
        return value
    }

    /// A JSON integer when present and not null.
    func optionalInteger(_ name: String) throws(SipsFailure) -> Int64? {
        switch members[name] {
        case nil, .null: return nil
        case .some(let value):
            guard let number = value.integerValue else { throw .format(name) }
            return number
        }
    }

    /// A required string among `allowed`.
    func choice(_ name: String, _ allowed: Set<String>) throws(SipsFailure) -> String {
        let value = try string(name)
        guard allowed.contains(value) else { throw .format(name) }
        return value
    }

    /// A required positive amount in minor units.
    func amount(_ name: String) throws(SipsFailure) -> Int64 {
        let value = try integer(name)
        guard value > 0 else { throw .format(name) }
        return value
    }

    /// A required ISO 4217 numeric currency code the emulator knows.
    func currencyCode() throws(SipsFailure) -> String {
        let code = try string("currencyCode")
        guard WorldlineSipsCurrency.alphaByNumeric[code] != nil else { throw .format("currencyCode") }
        return code
    }

    /// A required `transactionReference`: 1 to 35 ASCII letters and digits.
    func transactionReference() throws(SipsFailure) -> String {
        let value = try string("transactionReference")
        guard value.count <= 35, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw .format("transactionReference")
        }
        return value
    }

    /// A required card expiry date `yyyyMM` with a month from 01 to 12.
    func expiryDate(_ name: String) throws(SipsFailure) -> String {
        let value = try string(name)
        guard value.count == 6, value.allSatisfy({ $0.isASCII && $0.isNumber }),
            let month = Int(value.suffix(2)), (1...12).contains(month)
        else { throw .format(name) }
        return value
    }
}
