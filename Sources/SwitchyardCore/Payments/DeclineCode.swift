/// Our normalised reason for a provider's decline, shown next to the provider's own code (`decline_code`
/// beside `provider_code`), so a merchant can act on a decline without knowing each provider's codes.
///
/// A provider code that already is one of ours (case-insensitively), or an ISO 8583 response code we know,
/// maps to its reason; any other decline is ``generic``.
public enum DeclineCode {
    /// The reason of a decline we cannot name more precisely.
    public static let generic = "generic_decline"

    /// Every reason we give.
    public static let reasons: Set<String> = [
        generic, "insufficient_funds", "expired_card", "incorrect_cvc", "do_not_honor", "fraudulent",
        "lost_or_stolen_card", "invalid_card", "limit_exceeded", "authentication_required", "session_expired",
        "card_not_supported",
    ]

    /// ISO 8583 response codes, which several card acquirers pass through.
    static let iso8583: [String: String] = [
        "05": "do_not_honor", "14": "invalid_card", "41": "lost_or_stolen_card", "43": "lost_or_stolen_card",
        "51": "insufficient_funds", "54": "expired_card", "57": "card_not_supported", "59": "fraudulent",
        "61": "limit_exceeded", "N7": "incorrect_cvc",
    ]

    /// The reason for a decline the provider answered with `providerCode`.
    public static func normalised(_ providerCode: String?) -> String {
        guard let providerCode else { return generic }
        let lowered = providerCode.lowercased()
        if reasons.contains(lowered) { return lowered }
        return iso8583[providerCode.uppercased()] ?? generic
    }
}
