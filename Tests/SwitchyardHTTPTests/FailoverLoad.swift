import Foundation
import NIOHTTP1
import TestWaiting

/// One order of a failover run: a card payment, then a refund of part of it, each with its own
/// Idempotency-Key, and what the merchant's server was told.
struct FailoverOrder: Sendable {
    var order: ChaosOrder
    var refundKey: String
    /// The payment's status in the answer to its create.
    var createdStatus: String?
    /// The refund's id and status, when a replica acknowledged it.
    var refundId: String?
    var refundStatus: String?
    /// A create or refund refused for good (a 4xx other than 409/429), or never answered in time.
    var refusal: String?
}

/// The merchant's server during a failover: sends payments and refunds with their Idempotency-Keys,
/// retrying 503s, 409s in progress and connection errors with the same key on the next replica, and
/// counts every answer by status.
final class FailoverLoad: Sendable {
    static let refundAmount = 500

    let platform: ChaosPlatform
    let shop: ChaosShop
    /// Answers by HTTP status; transport errors under 0.
    let statuses = LockedState<[Int: Int]>([:])
    /// When the standby was promoted, and when each replica first acknowledged a write after that.
    let promotedAt = LockedState<Date?>(nil)
    let firstWriteAfterPromotion = LockedState<[Int: Date]>([:])

    init(platform: ChaosPlatform, shop: ChaosShop) {
        self.platform = platform
        self.shop = shop
    }

    /// Order `index`'s card payment, its key and its refund's key.
    func order(_ index: Int, run: String) throws -> FailoverOrder {
        let reference = "chaos-\(run)-\(index)"
        let amount = 2_000 + index
        let json: [String: Any] = [
            "amount": amount, "currency": "SGD", "country": "SG", "reference": reference, "customer": shop.customer,
            "payment_method": shop.paymentMethod,
        ]
        let order = ChaosOrder(
            index: index, flow: .antomCard, key: "key-" + reference, reference: reference, amount: amount,
            body: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
        return FailoverOrder(order: order, refundKey: "refund-" + reference)
    }

    /// Creates the payment and, once it succeeded, refunds part of it.
    func drive(_ order: inout FailoverOrder) async throws {
        let replica = order.order.index
        guard let created = try await post("/v1/payments", body: order.order.body, key: order.order.key, from: replica)
        else {
            order.refusal = "the create of \(order.order.key) was never answered"
            return
        }
        guard [200, 201].contains(created.status) else {
            order.refusal = "create \(created.status) \(created.text)"
            return
        }
        order.order.paymentId = created.json["id"] as? String
        order.createdStatus = created.json["status"] as? String
        guard let id = order.order.paymentId, order.createdStatus == "succeeded" else { return }
        let body = try JSONSerialization.data(withJSONObject: ["amount": Self.refundAmount])
        let path = "/v1/payments/\(id)/refunds"
        guard let refund = try await post(path, body: body, key: order.refundKey, from: replica + 1) else {
            order.refusal = "the refund \(order.refundKey) was never answered"
            return
        }
        guard [200, 201].contains(refund.status) else {
            order.refusal = "refund \(refund.status) \(refund.text)"
            return
        }
        order.refundId = refund.json["id"] as? String
        order.refundStatus = refund.json["status"] as? String
    }

    /// Posts `body` with `key`, starting on replica `first`, until a replica answers other than with a
    /// 503, a 409 `idempotency_in_progress`, a 429 or a broken connection; nil after 120 s.
    func post(_ path: String, body: Data, key: String, from first: Int) async throws -> ChaosPlatform.Reply? {
        var tries = 0
        // The merchant's retries, 250 ms apart.
        do {
            return try await Poll.value("an answer to \(path)", within: .seconds(120), every: .milliseconds(250)) {
                let replica = (first + tries) % platform.ports.count
                tries += 1
                do {
                    let reply = try await platform.send(
                        .POST, platform.replicaURL(replica) + path, token: shop.apiKey, body: body,
                        headers: ["Idempotency-Key": key], timeout: 15)
                    statuses.withLock { $0[reply.status, default: 0] += 1 }
                    switch reply.status {
                    case 409 where reply.errorCode == "idempotency_in_progress": return nil
                    case 429, 500..<600: return nil
                    default:
                        if [200, 201].contains(reply.status) { acknowledged(on: replica) }
                        return reply
                    }
                } catch {
                    statuses.withLock { $0[0, default: 0] += 1 }
                    return nil
                }
            }
        } catch is WaitTimedOut {
            return nil
        }
    }

    private func acknowledged(on replica: Int) {
        guard let promoted = promotedAt.withLock({ $0 }) else { return }
        let now = Date()
        guard now > promoted else { return }
        firstWriteAfterPromotion.withLock { first in
            if first[replica] == nil { first[replica] = now }
        }
    }

    /// Polls replica `index`'s `/ready` every 100 ms from now until it answers 200; the seconds that took,
    /// nil when it did not within `bound` seconds.
    func secondsUntilReady(_ index: Int, since start: Date, bound: Double) async -> Double? {
        let remaining = bound - Date().timeIntervalSince(start)
        guard remaining > 0 else { return nil }
        return try? await Poll.value("replica \(index) ready", within: .seconds(remaining), every: .milliseconds(100)) {
            guard let reply = try? await platform.send(.GET, platform.replicaURL(index) + "/ready", timeout: 2),
                reply.status == 200
            else { return nil }
            return Date().timeIntervalSince(start)
        }
    }
}
