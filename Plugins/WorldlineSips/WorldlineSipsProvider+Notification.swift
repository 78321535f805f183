import Foundation
import ProviderKit

extension WorldlineSipsProvider {
    /// Verifies an automatic response (form fields `Data`, `Seal`, `Encode`, `InterfaceVersion`) and reports the
    /// order's result.
    ///
    /// The seal is either form Sips uses (hex HMAC-SHA256 of `Data`, or hex SHA-256 of `Data` followed by the
    /// secret key), compared in constant time over `Data` as sent (the base64 text when `Encode=base64`). The
    /// `merchantId` inside `Data` must be the account's. Rejected (HTTP 401, no events): a missing field, a seal
    /// that does not verify, unreadable base64, another merchant. A verified response is acknowledged with 200
    /// `OK`, carries one payment event and is identified by the sealed `Data` alone.
    public func notification(_ request: NotificationRequest, account: AccountContext) async throws
        -> NotificationResult
    {
        let keys = try keys(of: account)
        let readings = SipsMapping.automaticResponses(request.body)
        guard !readings.isEmpty else {
            return rejected("missing Data or Seal", account: account)
        }
        let secret = keys.secretKey
        guard let verified = readings.first(where: { SipsSeal.verifyData($0.data, seal: $0.seal, secret: secret) })
        else {
            return rejected("seal mismatch", account: account)
        }
        guard let text = SipsMapping.dataText(verified) else {
            return rejected("unreadable Data", account: account)
        }
        let fields = SipsMapping.dataFields(text)
        guard let merchant = fields["merchantId"]?.trimmingCharacters(in: .whitespaces), merchant == keys.merchantId
        else {
            return rejected("merchant mismatch", account: account)
        }
        let event = SipsMapping.automaticResponseEvent(fields)
        host.log(
            .info, "sips automatic response verified",
            metadata: [
                "provider.account": account.accountId,
                "sips.response_code": SipsMapping.safeCode(fields["responseCode"]) ?? "",
                "outcome.kind": event.outcome.kind.rawValue,
            ])
        let reply = NotificationReply(
            status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: SipsMapping.acknowledgement)
        return NotificationResult(verified: true, reply: reply, events: [event], dedupKey: verified.data)
    }

    /// The answer to an automatic response that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext) -> NotificationResult {
        host.log(
            .warning, "sips automatic response rejected",
            metadata: ["provider.account": account.accountId, "sips.notify.reason": reason])
        let reply = NotificationReply(
            status: 401, headers: [HTTPHeader("Content-Type", "text/plain")], body: SipsMapping.rejection)
        return NotificationResult(verified: false, reply: reply, events: [], failureReason: reason)
    }
}
