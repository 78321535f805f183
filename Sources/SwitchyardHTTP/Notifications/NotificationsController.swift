import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ProviderKit
import SwitchyardCore

/// Provider notification intake: `POST /notifications/{account}`. The account's plugin verifies the
/// provider's signature; the raw body is recorded with the result; the reply is what the provider expects.
struct NotificationsController: Sendable {
    let service: PaymentService
    let log: any NotificationLog
    let bodyLimit: Int

    func register(on router: Router<AppContext>) {
        router.post("notifications/:account") { request, context in
            guard let accountId = context.parameters.get("account").flatMap(UUID.init(uuidString:)) else {
                throw CoreError.notFound("notification endpoint")
            }
            let body = try await JSONIO.body(request, limit: bodyLimit)
            var path = request.uri.path
            if let query = request.uri.query { path += "?" + query }
            let notification = NotificationRequest(
                method: request.method.rawValue, path: path,
                headers: request.headers.map { HTTPHeader($0.name.rawName, $0.value) }, body: body)
            let answer = try await service.handleNotification(accountId: accountId, request: notification, log: log)
            let reply = Self.reply(answer)
            var headers = HTTPFields()
            for header in reply.headers {
                if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
            }
            if headers[.contentType] == nil { headers[.contentType] = "text/plain; charset=utf-8" }
            return Response(
                status: HTTPResponse.Status(code: reply.status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: reply.body)))
        }
    }

    /// The HTTP answer to the provider: the plugin's acknowledgement as it is; a retryable 503 with
    /// `Retry-After` when the notification should come again; a 401 for an unverifiable one, unless the
    /// plugin chose a client error of its own.
    static func reply(_ answer: NotificationAnswer) -> NotificationReply {
        switch answer {
        case .acknowledged(let reply):
            return reply
        case .retryLater:
            return NotificationReply(
                status: 503, headers: [HTTPHeader("Content-Type", "text/plain"), HTTPHeader("Retry-After", "60")],
                body: "temporarily unavailable")
        case .unverified(let reply):
            return reply
                ?? NotificationReply(
                    status: 401, headers: [HTTPHeader("Content-Type", "text/plain")], body: "unverified")
        }
    }
}
