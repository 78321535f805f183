import SwitchyardCore

extension PGError: StorageFailure {
    /// Whether the database refused a text value itself (a NUL character, an invalid byte sequence or an
    /// unsupported `\u0000` escape in JSON): bad input, not a server fault.
    public var isUnstorableText: Bool {
        code == .invalidParameter || sqlState == "22021" || sqlState == "22P05"
    }
}
