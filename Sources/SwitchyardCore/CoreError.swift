/// A failure of ours (not a provider's decline), with a stable machine-readable ``ErrorCode``.
///
/// The HTTP layer renders it as `{"error":{"code":…,"message":…}}` with the status it maps the code to.
/// Messages never contain secrets.
public struct CoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// `not_found` for `what` (e.g. "payment").
    public static func notFound(_ what: String) -> CoreError {
        CoreError(.notFound, "\(what) not found")
    }
}
