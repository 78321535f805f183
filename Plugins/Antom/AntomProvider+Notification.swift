#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomProvider {
    /// Verifies a notification's `signature` with Antom's public key over
    /// `"<METHOD> <path>\n<client-id>.<request-time>.<body>"` and reports what it carries.
    ///
    /// Rejected (HTTP 401 with an `F INVALID_SIGNATURE` result, no events): a missing or repeated `client-id`,
    /// `request-time` or `signature` header, a client id other than the account's, a signature that does not
    /// verify, a signed `request-time` more than ``AntomSigning/notificationTolerance`` away from the host's
    /// clock (`stale_timestamp`). A verified notification is acknowledged with HTTP 200 and Antom's fixed
    /// `SUCCESS` body, also when its kind is unknown or its body unreadable (it then carries nothing); it is
    /// identified by its signed content and names the token fields the host must not store.
    public func notification(_ request: NotificationRequest, account: AccountContext) async throws
        -> NotificationResult
    {
        let clientId = try account.credentials.requireIdentifier(Credential.clientId)
        let publicKey = try antomPublicKey(try account.credentials.require(Credential.antomPublicKey))
        var values: [String: String] = [:]
        for name in ["client-id", "request-time", "signature"] {
            let found = request.headerValues(name)
            guard found.count == 1, let value = found.first else {
                return rejected(found.isEmpty ? "missing \(name) header" : "repeated \(name) header", account: account)
            }
            values[name] = value.trimmingBlanks()
        }
        guard values["client-id"] == clientId else {
            return rejected("client id mismatch", account: account)
        }
        let signed = AntomSigning.content(
            method: request.method.uppercased(), path: request.path, clientId: values["client-id"] ?? "",
            time: values["request-time"] ?? "", body: request.body)
        guard AntomSigning.verify(signed, headerValue: values["signature"] ?? "", key: publicKey) else {
            return rejected("signature mismatch", account: account)
        }
        guard AntomSigning.isFresh(values["request-time"] ?? "", now: host.now()) else {
            return rejected("stale_timestamp", account: account)
        }
        let reply = NotificationReply.body(AntomMapping.acknowledgement, status: 200, contentType: "application/json")
        let dedupKey = String(decoding: signed, as: UTF8.self)
        if let dispute = ProviderJSON.standard.decode(AntomDisputeNotification.self, from: request.body),
            dispute.disputeNotificationType != nil
        {
            let event = AntomMapping.disputeEvent(dispute)
            host.log(
                event == nil ? .warning : .info, "antom dispute notification verified", account: account,
                ["antom.notify.type": ProviderText.safeCode(dispute.disputeNotificationType) ?? ""])
            return NotificationResult(
                verified: true,
                reply: .body(AntomMapping.disputeAcknowledgement, status: 200, contentType: "application/json"),
                events: [], dedupKey: dedupKey, secretFields: AntomMapping.secretFields,
                disputes: event.map { [$0] } ?? [])
        }
        guard let notification = ProviderJSON.standard.decode(AntomNotification.self, from: request.body) else {
            host.log(.warning, "antom notification unreadable", account: account)
            return NotificationResult(
                verified: true, reply: reply, events: [], dedupKey: dedupKey, secretFields: AntomMapping.secretFields)
        }
        let carried = AntomMapping.content(of: notification)
        host.log(
            .info, "antom notification verified", account: account,
            [
                "antom.notify.type": ProviderText.safeCode(
                    notification.notifyType ?? notification.authorizationNotifyType) ?? "",
                "antom.notify.events": String(carried.events.count + carried.credentials.count),
            ])
        return NotificationResult(
            verified: true, reply: reply, events: carried.events, credentials: carried.credentials,
            dedupKey: dedupKey, secretFields: AntomMapping.secretFields)
    }

    /// The answer to a notification that cannot be trusted.
    func rejected(_ reason: String, account: AccountContext) -> NotificationResult {
        host.rejectNotification(
            reason, reply: .body(AntomMapping.signatureRejection, status: 401, contentType: "application/json"),
            account: account, message: "antom notification rejected", reasonKey: "antom.notify.reason",
            secretFields: AntomMapping.secretFields)
    }
}
