extension ErrorCode {
    /// Whether a request that failed with this code may succeed when sent again unchanged: the platform's
    /// own trouble (the database, a plugin, a provider out of reach, an unexpected failure), not the
    /// request's. Such a failure is never stored as an `Idempotency-Key`'s answer; every other code is the
    /// merchant's answer and is. The HTTP layer answers exactly these with a 5xx (a test holds the two
    /// tables together).
    public var isTransient: Bool {
        switch self {
        case .internalError, .databaseBusy, .databaseUnavailable, .pluginError, .pluginUnavailable,
            .providerUnreachable, .providersUnavailable, .sessionNotRenewed:
            return true
        default:
            return false
        }
    }
}
