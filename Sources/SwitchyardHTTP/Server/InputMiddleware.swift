import Foundation
import HTTPTypes
import Hummingbird

/// Refuses malformed requests before any route sees them:
/// - a NUL character (raw or `%00`) in the path or a query parameter: `400 invalid_text` (PostgreSQL
///   cannot store it, and no identifier contains it);
/// - a body declared as anything but JSON on a merchant or admin route: `415 unsupported_media_type`.
///   `application/json` and any `…/…+json` type are JSON, with any parameters (`charset=utf-8`). A body
///   without `Content-Type` is read as JSON. Provider notifications (`/notifications/…`) are exempt:
///   providers post forms.
struct InputMiddleware: RouterMiddleware {
    typealias Context = AppContext

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        try Self.checkTarget(path: request.uri.path, query: request.uri.query)
        if Self.hasBody(request.headers), !Self.isNotification(path: request.uri.path) {
            try Self.checkContentType(request.headers[.contentType])
        }
        return try await next(request, context)
    }

    /// Throws `400 invalid_text` when the path or a query parameter holds a NUL character.
    static func checkTarget(path: String, query: String?) throws {
        if containsNUL(path) {
            throw APIError(.invalidText, "the path contains a NUL character")
        }
        guard let query, containsNUL(query) else { return }
        for pair in query.split(separator: "&") {
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            if containsNUL(name) {
                throw APIError(.invalidText, "a query parameter's name contains a NUL character")
            }
            if containsNUL(pair) {
                let shown = String(name).removingPercentEncoding ?? String(name)
                throw APIError(
                    .invalidText,
                    "the query parameter '\(shown.prefix(100))' contains a NUL character")
            }
        }
    }

    /// Whether percent-encoded `text` decodes to something with a NUL: a raw NUL, or `%00`.
    static func containsNUL(_ text: some StringProtocol) -> Bool {
        var bytes = text.utf8.makeIterator()
        var window: (UInt8, UInt8) = (0xFF, 0xFF)
        while let byte = bytes.next() {
            if byte == 0 { return true }
            if window == (UInt8(ascii: "%"), UInt8(ascii: "0")) && byte == UInt8(ascii: "0") { return true }
            window = (window.1, byte)
        }
        return false
    }

    /// Whether the request announces a body: a positive `Content-Length`, or any `Transfer-Encoding`.
    static func hasBody(_ headers: HTTPFields) -> Bool {
        if headers[.transferEncoding] != nil { return true }
        guard let length = headers[.contentLength] else { return false }
        return length.trimmingCharacters(in: .whitespaces) != "0"
    }

    /// Whether `path` is a provider notification route, however it is spelled (`//notifications/…`).
    static func isNotification(path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: true).first == "notifications"
    }

    /// Throws `415 unsupported_media_type` unless `contentType` is absent or names JSON.
    static func checkContentType(_ contentType: String?) throws {
        guard let contentType else { return }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingCharacters(in: .whitespaces).lowercased()
        let parts = mediaType.split(separator: "/", omittingEmptySubsequences: false)
        let isJSON =
            parts.count == 2 && !parts[0].isEmpty
            && (mediaType == "application/json" || (parts[1].hasSuffix("+json") && parts[1].count > 5))
        guard isJSON else {
            throw APIError(
                .unsupportedMediaType,
                "request bodies must be JSON: send Content-Type: application/json")
        }
    }
}
