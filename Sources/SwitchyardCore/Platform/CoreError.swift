/// A failure of ours (not a provider's decline), with a stable machine-readable ``ErrorCode``.
///
/// The HTTP layer renders it as `{"error":{"code":…,"message":…}}` with the status it maps the code to,
/// adding `param`, `decline_code` and `provider_code` when they are set. Messages never contain secrets.
public struct CoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// The JSON path of the one request field at fault (`amount`, `metadata.order_no`), when there is one.
    public var param: String?
    /// For ``ErrorCode/providerDeclined``: our normalised reason (``DeclineCode``).
    public var declineCode: String?
    /// For ``ErrorCode/providerDeclined``: the provider's own code, as it came.
    public var providerCode: String?

    public init(
        _ code: ErrorCode, _ message: String, param: String? = nil, declineCode: String? = nil,
        providerCode: String? = nil
    ) {
        self.code = code
        self.message = message
        self.param = param
        self.declineCode = declineCode
        self.providerCode = providerCode
    }

    public var description: String { "\(code): \(message)" }

    /// `not_found` for `what` (e.g. "payment").
    public static func notFound(_ what: String) -> CoreError {
        CoreError(.notFound, "\(what) not found")
    }
}
