import Foundation
import Hummingbird

extension WorldlineSipsSandbox: SandboxEmulator {
    /// Always nil: a Sips request names its merchant only inside the JSON body, and the body is a
    /// single-use stream that the fault middleware would consume before the route reads it. Fault rules
    /// for this emulator therefore match by method and path only.
    func merchant(for request: Request) async -> String? {
        nil
    }

    func addRoutes(to group: RouterGroup<SandboxRequestContext>) {
        for service in SipsService.allCases {
            group.post(RouterPath("rs-services/v2/" + service.path)) { request, _ in
                await serve(request, service: service)
            }
        }
        for function in SipsAppFunction.allCases {
            group.post(RouterPath("inapp/" + function.rawValue)) { request, _ in
                await serve(request, function: function)
            }
        }
        group.get("acs") { request, _ in
            acsPage(SipsForm.decode(request.uri.query ?? ""))
        }
        group.post("acs") { request, _ in
            acsPage(await Self.form(of: request))
        }
        group.post("acs/answer") { request, _ in
            await acsAnswer(await Self.form(of: request))
        }
    }

    // MARK: ACS

    /// The ACS page: the `PaReq` (from the app's form post or the query) and two buttons.
    private func acsPage(_ form: [String: String]) -> Response {
        let paReq = form["PaReq"] ?? form["paReqMessage"] ?? ""
        let hidden = [("PaReq", paReq), ("MD", form["MD"] ?? ""), ("TermUrl", form["TermUrl"] ?? "")]
            .map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(Self.escapeHTML($0.1))\">" }
            .joined()
        let html = """
            <!DOCTYPE html><html><head><title>Sips sandbox ACS</title></head><body>
            <h1>3-D Secure (sandbox)</h1>
            <form method="post" action="acs/answer">\(hidden)<input type="hidden" name="approve" value="true">\
            <button type="submit">Approve</button></form>
            <form method="post" action="acs/answer">\(hidden)<input type="hidden" name="approve" value="false">\
            <button type="submit">Refuse</button></form>
            </body></html>
            """
        return SandboxHTTP.raw(Array(html.utf8), status: .ok, contentType: "text/html; charset=utf-8")
    }

    /// The cardholder's answer: the `PaRes`, posted back to `TermUrl` when one was given.
    private func acsAnswer(_ form: [String: String]) async -> Response {
        let paRes: String
        do throws(WorldlineSipsSandboxError) {
            paRes = try await authenticate(paReqMessage: form["PaReq"] ?? "", approve: form["approve"] == "true")
        } catch {
            return SandboxHTTP.text(error.message, status: .notFound)
        }
        let fields =
            "<input type=\"hidden\" name=\"PaRes\" value=\"\(paRes)\">"
            + "<input type=\"hidden\" name=\"MD\" value=\"\(Self.escapeHTML(form["MD"] ?? ""))\">"
        let html: String
        if let termURL = form["TermUrl"], !termURL.isEmpty {
            html = """
                <!DOCTYPE html><html><body onload="document.forms[0].submit()">
                <form method="post" action="\(Self.escapeHTML(termURL))">\(fields)</form></body></html>
                """
        } else {
            html = "<!DOCTYPE html><html><body><p id=\"PaRes\">\(paRes)</p></body></html>"
        }
        return SandboxHTTP.raw(Array(html.utf8), status: .ok, contentType: "text/html; charset=utf-8")
    }

    private static func form(of request: Request) async -> [String: String] {
        let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
        return SipsForm.decode(String(decoding: bytes, as: UTF8.self))
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
