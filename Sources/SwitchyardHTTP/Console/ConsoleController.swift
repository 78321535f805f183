import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The operator console: a static page at `/console` with its stylesheet and script, shipped inside the
/// binary. The page talks only to the admin API with the operator token the operator types in; it is
/// served without any credential, under a strict Content-Security-Policy (same-origin script, style and
/// fetch only; no inline code, no frames, no forms posted elsewhere).
struct ConsoleController: Sendable {
    /// Same-origin only; nothing inline, nothing embedded, nothing framing the page.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func register(on router: Router<AppContext>) {
        let page: @Sendable (Request, AppContext) async throws -> Response = { _, _ in
            Self.asset(ConsoleAssets.html, type: "text/html; charset=utf-8")
        }
        router.get("console", use: page)
        router.get("console/app.css") { _, _ in Self.asset(ConsoleAssets.css, type: "text/css; charset=utf-8") }
        router.get("console/app.js") { _, _ in
            Self.asset(ConsoleAssets.script, type: "text/javascript; charset=utf-8")
        }
    }

    /// A console file with its content type and the console's security headers.
    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
