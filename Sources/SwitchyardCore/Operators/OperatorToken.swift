/// The rules an operator token must meet before a server starts with it.
///
/// The token guards every operator action on every tenant, so it must be long, random-looking and not
/// a value copied from an example. The checks never reveal the token: their messages name the rule only.
public enum OperatorToken {
    /// The fewest characters accepted.
    public static let minimumLength = 32
    /// The fewest distinct characters accepted.
    public static let minimumDistinctCharacters = 10
    /// The longest run of repeated or consecutive characters (`aaaa…`, `abcd…`, `9876…`) accepted.
    public static let longestRun = 5
    /// Words that mark a value as a placeholder rather than a secret (compared without case).
    public static let placeholders = [
        "changeme", "change-me", "change_me", "replace", "example", "placeholder", "xxxx", "your-token",
        "your_token", "yourtoken", "dummy", "sample", "secret", "password",
    ]

    /// Why `token` is not acceptable, or nil when it is.
    public static func problem(_ token: String) -> String? {
        let characters = Array(token.unicodeScalars)
        if characters.count < minimumLength {
            return "the operator token is too short: at least \(minimumLength) characters are required"
        }
        let lowered = token.lowercased()
        if placeholders.contains(where: lowered.contains) {
            return "the operator token looks like a placeholder; generate one, e.g. `head -c 32 /dev/urandom | base64`"
        }
        if Set(characters).count < minimumDistinctCharacters {
            return
                "the operator token has too little variety: at least \(minimumDistinctCharacters) distinct characters are required"
        }
        if hasLongRun(characters) {
            return "the operator token holds a long run of repeated or consecutive characters"
        }
        if isRepetition(characters) {
            return "the operator token repeats a shorter sequence"
        }
        return nil
    }

    /// Whether more than ``longestRun`` characters in a row are equal, or step up or down by one.
    static func hasLongRun(_ characters: [Unicode.Scalar]) -> Bool {
        var run = 1
        var step: Int64?
        for (previous, next) in zip(characters, characters.dropFirst()) {
            let difference = Int64(next.value) - Int64(previous.value)
            if abs(difference) <= 1 && (step == nil || step == difference) {
                run += 1
                step = difference
            } else if abs(difference) <= 1 {
                run = 2
                step = difference
            } else {
                run = 1
                step = nil
            }
            if run > longestRun { return true }
        }
        return false
    }

    /// Whether the whole token is one shorter sequence repeated (`abcdefghij` four times).
    static func isRepetition(_ characters: [Unicode.Scalar]) -> Bool {
        let count = characters.count
        guard count > 1 else { return false }
        for period in 1...(count / 2) {
            if (period..<count).allSatisfy({ characters[$0] == characters[$0 - period] }) { return true }
        }
        return false
    }
}
