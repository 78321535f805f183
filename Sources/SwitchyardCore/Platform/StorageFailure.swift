/// A failure of the storage behind a repository port, as the API needs to tell it apart: a busy store is
/// worth retrying later (`503 database_busy`), an unreachable one too (`503 database_unavailable`), a text
/// value the store cannot hold is bad input (`400 invalid_text`). Any other storage failure is a server
/// fault. The description names the failure without parameter values, so it is safe to log.
public protocol StorageFailure: Error, CustomStringConvertible {
    /// The store was too busy to serve in time (no connection became free, a statement timed out).
    var isBusy: Bool { get }
    /// The store could not be reached or the connection broke (a server restarting, failing over, or
    /// reached as a read-only standby). Worth retrying shortly.
    var isUnavailable: Bool { get }
    /// The store refused a text value itself (e.g. a NUL character or an invalid byte sequence).
    var isUnstorableText: Bool { get }
}

extension StorageFailure {
    /// False unless the store says otherwise.
    public var isUnavailable: Bool { false }
}

extension Error {
    /// Whether this error is a ``StorageFailure`` saying the database cannot be reached just now.
    public var isStorageUnavailable: Bool { (self as? any StorageFailure)?.isUnavailable ?? false }
}
