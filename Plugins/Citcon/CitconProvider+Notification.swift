import Foundation
import ProviderKit

extension CitconProvider {
    /// Verifies an IPN's `sign` with the account's `ipn_secret` and reports what it says.
    ///
    /// An unverified IPN gets HTTP 401 and no events; a verified one gets HTTP 200 `success` and one
    /// event built from the signed fields only, identified by those fields in their canonical order.
    public func notification(
        _ request: NotificationRequest, account: AccountContext
    ) async throws -> NotificationResult {
        let secret = try credential(Credential.ipnSecret, of: account)
        let contentType = request.headers.first { $0.name.lowercased() == "content-type" }?.value
        guard let pairs = CitconIPNBody.parse(request.body, contentType: contentType) else {
            return rejected("unreadable body", account: account)
        }
        switch CitconSigning.verify(pairs, secret: secret) {
        case .rejected(let reason):
            return rejected(reason, account: account)
        case .verified(let signed):
            guard let event = CitconMapping.ipnEvent(signed: signed) else {
                return rejected("status not signed", account: account)
            }
            host.log(.info, "citcon ipn verified", metadata: ["provider.account": account.accountId])
            let reply = NotificationReply(
                status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: "success")
            return NotificationResult(
                verified: true, reply: reply, events: [event], dedupKey: CitconSigning.canonical(values: signed))
        }
    }

    /// The answer to an IPN that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext) -> NotificationResult {
        host.log(
            .warning, "citcon ipn rejected",
            metadata: ["provider.account": account.accountId, "citcon.ipn.reason": reason]
        )
        let reply = NotificationReply(
            status: 401, headers: [HTTPHeader("Content-Type", "text/plain")], body: "unverified")
        return NotificationResult(verified: false, reply: reply, events: [], failureReason: reason)
    }
}
