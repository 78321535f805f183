#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension NotificationRequest {
    /// Every value of a header, names compared case-insensitively (a signature header sent twice must be
    /// seen twice).
    public func headerValues(_ name: String) -> [String] {
        let name = name.lowercased()
        return headers.filter { $0.name.lowercased() == name }.map(\.value)
    }

    /// The value of the first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headerValues(name).first
    }
}

extension NotificationReply {
    /// A reply with a body of `contentType` (`text/plain` by default).
    public static func body(_ body: String, status: Int, contentType: String = "text/plain") -> NotificationReply {
        NotificationReply(status: status, headers: [HTTPHeader("Content-Type", contentType)], body: body)
    }
}

extension HostServices {
    /// Logs a short message with the account's id as `provider.account`, plus `metadata`. Never pass secrets.
    public func log(
        _ level: PluginLogLevel, _ message: String, account: AccountContext, _ metadata: [String: String] = [:]
    ) {
        log(level, message, metadata: metadata.merging(["provider.account": account.accountId]) { _, id in id })
    }

    /// The answer to a notification that cannot be trusted: logged as a warning `message` with the reason
    /// under `reasonKey`, not verified, no events.
    public func rejectNotification(
        _ reason: String, reply: NotificationReply, account: AccountContext, message: String, reasonKey: String,
        secretFields: [String] = []
    ) -> NotificationResult {
        log(.warning, message, account: account, [reasonKey: reason])
        return NotificationResult(
            verified: false, reply: reply, events: [], failureReason: reason, secretFields: secretFields)
    }
}
