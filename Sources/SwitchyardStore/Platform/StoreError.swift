/// Failures of the store that are ours, with stable codes.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidKey(String)
    case corrupt(String)
    /// A value is sealed by a key-encryption key (named by its id) that the keyring does not have.
    case unknownKey(String)

    /// The stable machine-readable code.
    public var code: String {
        switch self {
        case .invalidKey: "invalid_key"
        case .corrupt: "corrupt"
        case .unknownKey: "unknown_key"
        }
    }

    public var description: String {
        switch self {
        case .invalidKey(let message): return "invalid_key: \(message)"
        case .corrupt(let message): return "corrupt: \(message)"
        case .unknownKey(let id):
            return "unknown_key: a value is sealed by key-encryption key \(id), which is not configured; "
                + "add that key as a previous key (SWITCHYARD_KEK_PREVIOUS or --kek-previous-file)"
        }
    }
}
