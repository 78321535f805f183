/// An amount in minor units as it arrives in JSON: an integer, and nothing else (no fraction, no string).
struct MinorUnits: Decodable, Sendable {
    var value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let value = try? container.decode(Int64.self) else {
            throw DecodingError.typeMismatch(
                Int64.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "an integer in minor units"))
        }
        self.value = value
    }
}
