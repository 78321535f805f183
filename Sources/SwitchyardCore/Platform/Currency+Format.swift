extension Currency {
    /// An amount in minor units written for people in major units with the currency's exponent and
    /// thousands separators, e.g. `1000000` EUR → `10,000.00`, `5000` JPY → `5,000`, `-1234` KWD → `-1.234`.
    public func format(_ minor: Int64) -> String {
        let digits = String(minor.magnitude)
        let padded = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
        let whole = padded.dropLast(exponent)
        let fraction = padded.suffix(exponent)
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0 && (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (minor < 0 ? "-" : "") + grouped + (exponent > 0 ? "." + fraction : "")
    }

    /// ``format(_:)`` followed by the code, e.g. `10,000.00 EUR`; the bare number of minor units and the code
    /// for a code that is not a currency.
    public static func formatted(_ minor: Int64, _ code: String) -> String {
        guard let currency = named(code) else { return "\(minor) \(code)" }
        return "\(currency.format(minor)) \(code)"
    }
}
