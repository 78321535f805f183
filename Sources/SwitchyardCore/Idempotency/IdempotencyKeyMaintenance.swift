import Foundation

/// The janitor's work on `Idempotency-Key`s whose request ended without answering them.
public protocol IdempotencyKeyMaintenance: Sendable {
    /// Settles at most `limit` keys still in progress whose lease ran out before `now`: a key linked to what
    /// its request created, or naming a payment it acted on (``IdempotentResource/settled(key:resourceId:)``),
    /// is answered with that resource, so a replay renders it as it is now; any other key is released.
    func settleExpiredKeys(now: Date, limit: Int) async throws -> ExpiredKeySettlement
}

/// What one look at expired `Idempotency-Key`s did.
public struct ExpiredKeySettlement: Sendable, Equatable {
    /// Keys answered with the resource they were linked to.
    public var completed: Int
    /// Keys released (nothing linked to them).
    public var released: Int

    public init(completed: Int = 0, released: Int = 0) {
        self.completed = completed
        self.released = released
    }
}

extension IdempotentResource {
    /// The operations on a payment whose takeover answers the payment as it is now (never repeating them).
    static let paymentOperations: Set<String> = ["capture", "complete", "cancel", "session"]

    /// What starts the stored key of a live API key's request (a test key's has no prefix).
    public static let liveKeyPrefix = "live "

    /// A POSIX regular expression matching the stored keys of operations on a payment (those
    /// ``settled(key:resourceId:)`` answers with the payment though nothing is linked to them): their request
    /// may have had its effect, so a release ends such a key's lease rather than forgetting it, and the retry
    /// that takes it over answers the payment as it is now instead of repeating the operation.
    public static let paymentOperationKeyPattern =
        "^(" + liveKeyPrefix + ")?POST /v1/payments/[^/ ]+/(" + paymentOperations.sorted().joined(separator: "|")
        + ") "

    /// What a key still in progress past its lease answers once its request is gone, as a takeover would:
    /// the payment or refund its request created (linked to it, by the id's prefix) as a `201`; for an
    /// operation on a payment (capture, complete, cancel, session renewal, whose effect may have happened),
    /// the payment as a `200`, so the operation is never repeated. Nil when nothing needs protecting (nothing
    /// created, or a route that runs again): the key is then released. `key` is the key as stored
    /// (`<method> <route> <key>`, after `live ` for a live key's).
    public static func settled(key: String, resourceId: String?) -> IdempotentResource? {
        let scoped = key.hasPrefix(liveKeyPrefix) ? key.dropFirst(liveKeyPrefix.count) : Substring(key)
        let parts = scoped.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "POST" else { return nil }
        let path = parts[1].split(separator: "/").map(String.init)
        guard path.count >= 2, path[0] == "v1", path[1] == "payments" else { return nil }
        switch (path.count, resourceId) {
        case (2, let id?) where id.hasPrefix("pay_"):
            return IdempotentResource(kind: .payment, id: id, created: true)
        case (4, let id?) where path[3] == "refunds" && id.hasPrefix("re_"):
            return IdempotentResource(kind: .refund, id: id, created: true)
        case (4, _) where paymentOperations.contains(path[3]):
            return IdempotentResource(kind: .payment, id: path[2].removingPercentEncoding ?? path[2], created: false)
        default:
            return nil
        }
    }
}
