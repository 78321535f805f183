import Foundation
import NIOHTTP1
import ProviderSandbox
import TestWaiting

@testable import SwitchyardCore

/// What the merchant's server and the shopper's app did for one payment of a chaos run.
struct ChaosOrder: Sendable {
    enum Flow: String, Sendable {
        /// Citcon: `requires_action` with a client token; the app confirms the charge through the SDK route.
        case citconSession
        /// Antom: a vaulted card, decided server to server.
        case antomCard
    }

    var index: Int
    var flow: Flow
    var key: String
    var reference: String
    var amount: Int
    /// The exact bytes sent on every try, so every retry is "the same key and body".
    var body: Data
    var paymentId: String?
    /// Tries of the create before an answer (1 when the first answered).
    var tries = 0
    /// Statuses the create got first, e.g. `requires_action`, `unknown`.
    var firstStatus: String?
    /// The create answered `requires_action` with no client token: the app could not pay.
    var sessionWithoutClientToken = false
    /// A replay of the create on another replica answered another payment.
    var replayAnsweredAnotherPayment = false
    /// The app confirmed the charge at the sandbox (or was told it already was).
    var appPaid = false
    /// The IPN of the app's payment was set up to be lost.
    var notificationDropped = false
    /// When the app's confirmation was answered (the customer's action done).
    var paidAt: Date?
    /// The create was refused for good (a 4xx other than 409/429), with the reply.
    var refusal: String?
    /// Tries answered `409 idempotency_in_progress` (the key held by an earlier try).
    var heldReplies = 0
    /// The create's retry budget ran out with no answer.
    var budgetSpent = false
}

/// The merchant's server and the app: creates payments with an `Idempotency-Key`, retrying on errors and
/// timeouts against another replica, and pays the sessions it gets; never syncs a payment.
struct ChaosClient: Sendable {
    let platform: ChaosPlatform
    let shop: ChaosShop

    /// Creates the order's payment; retries with the same key and body until a replica answers it.
    func create(_ order: inout ChaosOrder, within seconds: Double = 90) async -> [String: Any]? {
        // The merchant's retries, 300 ms apart: `.some(json)` is an answer, `.some(nil)` a refusal.
        let answer: [String: Any]??
        do {
            answer = try await Poll.value(
                "order \(order.key) answered", within: .seconds(seconds), every: .milliseconds(300)
            ) {
                () async -> [String: Any]?? in
                let url = platform.replicaURL(order.index + order.tries) + "/v1/payments"
                order.tries += 1
                do {
                    // An impatient first try: a create held up by a provider timeout is retried elsewhere
                    // while the first request still runs.
                    let reply = try await platform.send(
                        .POST, url, token: shop.apiKey, body: order.body, headers: ["Idempotency-Key": order.key],
                        timeout: order.tries == 1 ? 2 : 8)
                    switch reply.status {
                    case 200, 201: return .some(reply.json)
                    case 409 where reply.errorCode == "idempotency_in_progress":
                        order.heldReplies += 1
                        return nil
                    case 409, 429, 500..<600: return nil
                    default:
                        order.refusal = "\(reply.status) \(reply.text)"
                        return .some(nil)
                    }
                } catch {
                    // A timeout, a reset or a killed replica: try again, elsewhere.
                    return nil
                }
            }
        } catch {
            answer = nil
        }
        guard let answer else {
            order.budgetSpent = true
            return nil
        }
        return answer
    }

    /// The same create again on another replica: the stored answer, never a second payment.
    func replay(_ order: ChaosOrder, on replica: Int) async -> ChaosPlatform.Reply? {
        try? await platform.send(
            .POST, platform.replicaURL(replica) + "/v1/payments", token: shop.apiKey, body: order.body,
            headers: ["Idempotency-Key": order.key], timeout: 15)
    }

    /// The app's part: confirms the charge through the sandbox's SDK route with the client token, retrying
    /// what the faults break. True when the charge is confirmed (now or before).
    func pay(clientToken: String, chargeToken: String) async -> Bool {
        let body = Data(#"{"payment":{"method":"alipay"}}"#.utf8)
        var tries = 0
        // The app's taps, 200 ms apart, eight at most.
        let paid = try? await Poll.value(
            "charge \(chargeToken) confirmed", within: .seconds(60), every: .milliseconds(200)
        ) {
            () async -> Bool? in
            guard tries < 8 else { return false }
            tries += 1
            guard
                let reply = try? await platform.send(
                    .POST, platform.sandboxURL + "/citcon/v1/charges/\(chargeToken)", token: clientToken, body: body,
                    timeout: 4)
            else { return nil }
            let status = reply.json["status"] as? String
            let code = (reply.json["data"] as? [String: Any])?["code"] as? String
            if reply.status == 200 && status == "success" { return true }
            if code == "4101" { return true }
            if let code, code != "5000" { return false }
            return nil
        }
        return paid ?? false
    }

    /// Whether the sandbox should lose the next Citcon notification (the one this app payment causes, or
    /// another payment's: either way one notification is lost).
    func loseNextNotification() async throws {
        let rule = SandboxFault(kind: .dropNotification, merchant: TestStack.citconMerchant.id, count: 1)
        let reply = try await platform.send(
            .POST, platform.sandboxURL + "/_sandbox/citcon/faults", body: try JSONEncoder().encode([rule]))
        guard reply.status == 200 else { throw TestFailure("fault rule refused: \(reply.status) \(reply.text)") }
    }
}
