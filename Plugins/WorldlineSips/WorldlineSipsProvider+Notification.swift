#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
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
        let secret = keys.secretKey.reveal()
        guard let verified = readings.first(where: { SipsSeal.verifyData($0.data, seal: $0.seal, secret: secret) })
        else {
            return rejected("seal mismatch", account: account)
        }
        guard let text = SipsMapping.dataText(verified) else {
            return rejected("unreadable Data", account: account)
        }
        let fields = SipsMapping.dataFields(text)
        guard let merchant = fields["merchantId"]?.trimmingBlanks(), merchant == keys.merchantId
        else {
            return rejected("merchant mismatch", account: account)
        }
        let event = SipsMapping.automaticResponseEvent(fields)
        host.log(
            .info, "sips automatic response verified", account: account,
            [
                "sips.response_code": ProviderText.safeCode(fields["responseCode"]) ?? "",
                "outcome.kind": event.outcome.kind.rawValue,
            ])
        return NotificationResult(
            verified: true, reply: .body(SipsMapping.acknowledgement, status: 200), events: [event],
            dedupKey: verified.data)
    }

    /// The answer to an automatic response that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext) -> NotificationResult {
        host.rejectNotification(
            reason, reply: .body(SipsMapping.rejection, status: 401), account: account,
            message: "sips automatic response rejected", reasonKey: "sips.notify.reason")
    }
}
