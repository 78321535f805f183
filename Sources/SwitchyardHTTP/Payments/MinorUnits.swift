/// An amount in minor units as it arrives in JSON: an integer literal, and nothing else (no fraction, no
/// exponent, no string). `12.0` and `1e3` are refused although they denote integers: an amount written
/// that way is most likely a major-unit amount sent by mistake.
struct MinorUnits: Codable, Sendable, Equatable {
    var value: Int64

    init(_ value: Int64) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        if let report = decoder.userInfo[StrictJSON.reportKey] as? StrictJSON.Report,
            report.nonIntegerNumbers.contains(StrictJSON.field(decoder.codingPath))
        {
            throw APIError(
                .invalidAmount,
                "the field '\(StrictJSON.field(decoder.codingPath))' must be an integer in minor units, "
                    + "written without a fraction or an exponent",
                param: StrictJSON.param(decoder.codingPath))
        }
        let container = try decoder.singleValueContainer()
        guard let value = try? container.decode(Int64.self) else {
            throw DecodingError.typeMismatch(
                Int64.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "an integer in minor units"))
        }
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
