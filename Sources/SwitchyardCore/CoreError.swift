/// A failure of ours (not a provider's decline), with a stable machine-readable code.
///
/// The HTTP layer renders it as `{"error":{"code":…,"message":…}}` with ``status``.
/// Messages never contain secrets.
public struct CoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: String
    public var message: String
    /// The HTTP status this failure maps to.
    public var status: Int

    public init(code: String, message: String, status: Int) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String { "\(code): \(message)" }

    public static func invalid(_ code: String, _ message: String) -> CoreError {
        CoreError(code: code, message: message, status: 400)
    }
    public static func notFound(_ what: String) -> CoreError {
        CoreError(code: "not_found", message: "\(what) not found", status: 404)
    }
    public static func conflict(_ code: String, _ message: String) -> CoreError {
        CoreError(code: code, message: message, status: 409)
    }
    public static func unprocessable(_ code: String, _ message: String) -> CoreError {
        CoreError(code: code, message: message, status: 422)
    }
    public static func unavailable(_ code: String, _ message: String) -> CoreError {
        CoreError(code: code, message: message, status: 503)
    }
}
