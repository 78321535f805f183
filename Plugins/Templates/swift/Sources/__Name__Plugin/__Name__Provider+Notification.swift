#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension __Name__Provider {
    /// Verifies a notification's `X-Signature` with the account's `webhook_secret` and reports what it says.
    ///
    /// Refused (`verified: false`, HTTP 401, no events): a missing or repeated signature header, or a
    /// signature that does not match the body. A verified body that is not an event is refused with HTTP 400.
    /// A verified event gets HTTP 200 and, for `payment.*` and `refund.*` types, one event.
    public func notification(
        _ request: NotificationRequest, account: AccountContext
    ) async throws -> NotificationResult {
        let secret = try account.credentials.require(Credential.webhookSecret)
        let signatures = request.headerValues(__Name__Signing.header)
        guard signatures.count == 1, let signature = signatures.first else {
            return rejected(signatures.isEmpty ? "missing signature" : "repeated signature header", account: account)
        }
        guard __Name__Signing.verify(body: request.body, signature: signature, secret: secret.reveal()) else {
            return rejected("signature mismatch", account: account)
        }
        guard let event = ProviderJSON.standard.decode(__Name__Event.self, from: request.body) else {
            return rejected("not an event", account: account, status: 400)
        }
        host.log(
            .info, "__name__ notification verified", account: account,
            ["__name__.event.type": ProviderText.safeCode(event.type) ?? ""])
        let events = __Name__Mapping.event(event).map { [$0] } ?? []
        return NotificationResult(verified: true, reply: .body("ok", status: 200), events: events)
    }

    /// The answer to a notification that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext, status: Int = 401) -> NotificationResult {
        host.rejectNotification(
            reason, reply: .body("unverified", status: status), account: account,
            message: "__name__ notification rejected", reasonKey: "__name__.notification.reason")
    }
}
