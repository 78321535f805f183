import SwitchyardCore

/// What points at a stored error's cause, kept as the `error_details` of an answered Idempotency-Key so
/// that its replays say what the first answer said.
struct ErrorPointers: Codable, Equatable {
    var param: String?
    var declineCode: String?
    var providerCode: String?

    enum CodingKeys: String, CodingKey {
        case param
        case declineCode = "decline_code"
        case providerCode = "provider_code"
    }

    /// Whether nothing points anywhere (nothing to store).
    var isEmpty: Bool { param == nil && declineCode == nil && providerCode == nil }
}
