import Foundation

/// Who is acting and from where, for the audit entries written while an admin request runs: set once by
/// the admin API's authentication for the rest of the request (a task-local value), read by the store
/// where it writes an audit entry, so no handler has to pass it along.
public struct AuditContext: Sendable, Equatable {
    /// The operator behind the request.
    public var identity: OperatorIdentity
    /// The request's `X-Request-Id`.
    public var requestId: String?
    /// The address the request came from.
    public var sourceAddress: String?

    public init(identity: OperatorIdentity, requestId: String?, sourceAddress: String?) {
        self.identity = identity
        self.requestId = requestId
        self.sourceAddress = sourceAddress
    }

    /// The context of the admin request running in this task, if any.
    @TaskLocal public static var current: AuditContext?
}
