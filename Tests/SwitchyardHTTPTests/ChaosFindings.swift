import Foundation

/// What a chaos run left behind, from the merchant API's payments, the sandbox's ledgers and what the
/// client saw: the rows of the table the run prints, and the reconciliation of both ledgers.
struct ChaosFindings: Sendable {
    var payments = 0
    var statuses: [String: Int] = [:]
    /// `unknown` payments; of them, those with no money at the provider.
    var unknown: [String] = []
    var unknownWithoutMoney: [String] = []
    /// Payments answered or left `requires_action` without a client token for the app.
    var sessionWithoutClientToken: [String] = []
    /// `requires_action` at the end whose session is not live (missing, expired).
    var sessionNotLive: [String] = []
    /// Of ``sessionNotLive``, those whose create gave the app a client token (with `history`).
    var sessionNotLiveWithClientToken: [String] = []
    var stuckProcessing: [String] = []
    /// Paid at the provider, not `succeeded` with us.
    var paidNotSucceeded: [String] = []
    /// `succeeded` with us, no money at the provider.
    var succeededWithoutCharge: [String] = []
    var doubleCharges: [String] = []
    /// Provider charges that belong to no payment.
    var orphanCharges: [String] = []
    var amountMismatches: [String] = []
    /// Orders whose payment is missing, or answered by no replica, and references with several payments.
    var lostPayments: [String] = []
    var duplicatePayments: [String] = []
    /// Keys still answering `409 idempotency_in_progress` (filled by the final replay).
    var keysInProgress: [String] = []
    var replaysAnsweringAnotherPayment: [String] = []

    /// Whether the run settled: every row that must be empty is.
    var settled: Bool {
        unknown.isEmpty && sessionWithoutClientToken.isEmpty && sessionNotLive.isEmpty && stuckProcessing.isEmpty
            && paidNotSucceeded.isEmpty && succeededWithoutCharge.isEmpty && doubleCharges.isEmpty
            && orphanCharges.isEmpty && amountMismatches.isEmpty && lostPayments.isEmpty
            && duplicatePayments.isEmpty && keysInProgress.isEmpty && replaysAnsweringAnotherPayment.isEmpty
    }

    /// Findings over `payments` (the merchant API's list), the Citcon and Antom ledgers and the orders;
    /// with `history`, also what the client saw during the run (sessions handed out without a client token,
    /// replays answered with another payment).
    init(
        payments list: [[String: Any]], citconLedger: [[String: Any]], antomLedger: [[String: Any]],
        orders: [ChaosOrder], history: Bool, now: Date
    ) {
        payments = list.count
        // Money at the provider, by the attempt it belongs to: Citcon's charge reference is our attempt id,
        // Antom's payment id is the attempt's provider payment id.
        var charges: [String: [Int]] = [:]
        for entry in citconLedger where entry["kind"] as? String == "charge" {
            charges["citcon/" + (entry["chargeReference"] as? String ?? "-"), default: []].append(
                entry["amount"] as? Int ?? -1)
        }
        for entry in antomLedger where entry["kind"] as? String == "charge" {
            charges["antom/" + (entry["paymentId"] as? String ?? "-"), default: []].append(
                entry["amount"] as? Int ?? -1)
        }
        var byReference: [String: [String]] = [:]
        for payment in list {
            let id = payment["id"] as? String ?? "-"
            let status = payment["status"] as? String ?? "-"
            statuses[status, default: 0] += 1
            byReference[payment["reference"] as? String ?? "-", default: []].append(id)
            let attempts = payment["attempts"] as? [[String: Any]] ?? []
            var money: [Int] = []
            for attempt in attempts {
                for key in Self.chargeKeys(attempt) {
                    if let found = charges.removeValue(forKey: key) { money += found }
                }
            }
            if money.count > 1 { doubleCharges.append(id) }
            if let amount = money.first, amount != payment["amount"] as? Int { amountMismatches.append(id) }
            switch status {
            case "unknown":
                unknown.append(id)
                if money.isEmpty { unknownWithoutMoney.append(id) }
            case "processing": stuckProcessing.append(id)
            case "requires_action":
                if !Self.hasClientToken(payment) { sessionWithoutClientToken.append(id) }
                if !Self.sessionIsLive(payment, now: now) { sessionNotLive.append(id) }
            case "succeeded": if money.isEmpty { succeededWithoutCharge.append(id) }
            default: break
            }
            if !money.isEmpty && status != "succeeded" { paidNotSucceeded.append(id) }
        }
        orphanCharges = charges.keys.sorted()
        duplicatePayments = byReference.filter { $0.value.count > 1 }.keys.sorted()
        let known = Set(list.compactMap { $0["id"] as? String })
        for order in orders {
            guard let id = order.paymentId, known.contains(id) else {
                lostPayments.append(order.reference)
                continue
            }
            guard history else { continue }
            if sessionNotLive.contains(id) && !order.sessionWithoutClientToken && order.firstStatus == "requires_action"
            {
                sessionNotLiveWithClientToken.append(id)
            }
            if order.sessionWithoutClientToken && !sessionWithoutClientToken.contains(id) {
                sessionWithoutClientToken.append(id)
            }
            if order.replayAnsweredAnotherPayment { replaysAnsweringAnotherPayment.append(id) }
        }
        let ordered = Set(orders.compactMap(\.paymentId))
        lostPayments += known.subtracting(ordered).sorted().map { "unasked \($0)" }
    }

    /// The ledger keys an attempt's money would be found under.
    static func chargeKeys(_ attempt: [String: Any]) -> [String] {
        var keys: [String] = []
        if attempt["plugin"] as? String == "citcon", let id = attempt["id"] as? String { keys.append("citcon/" + id) }
        if attempt["plugin"] as? String == "antom", let id = attempt["provider_payment_id"] as? String {
            keys.append("antom/" + id)
        }
        return keys
    }

    /// Whether a payment's `next_action` gives the app a client token (Citcon) — other flows need none here.
    static func hasClientToken(_ payment: [String: Any]) -> Bool {
        guard let next = payment["next_action"] as? [String: Any] else { return false }
        guard next["type"] as? String == "citcon_sdk" else { return true }
        let data = next["data"] as? [String: Any] ?? [:]
        return (data["client_token"] as? String)?.isEmpty == false
            && (data["charge_token"] as? String)?.isEmpty == false
    }

    /// Whether the payment's session is live at `now`: a `next_action` whose expiry is still ahead.
    static func sessionIsLive(_ payment: [String: Any], now: Date) -> Bool {
        guard let next = payment["next_action"] as? [String: Any] else { return false }
        let session = payment["session"] as? [String: Any]
        guard let text = next["expires_at"] as? String ?? session?["expires_at"] as? String,
            let expiry = ISO8601DateFormatter().date(from: text)
        else { return false }
        return expiry > now && (session?["status"] as? String ?? "live") == "live"
    }

    /// The issue's table for this run, then the reconciliation.
    func table(label: String) -> String {
        """
        | after settling (janitor only, no merchant sync) | \(label) |
        |---|---|
        | still `unknown` (of them with no money at the provider) | \(unknown.count) (\(unknownWithoutMoney.count)) |
        | `requires_action` handed out without a `client_token` | \(sessionWithoutClientToken.count) |
        | Idempotency-Keys answering `409 idempotency_in_progress` | \(keysInProgress.count) |
        | payments stuck in `processing` | \(stuckProcessing.count) |
        | paid at the provider but not `succeeded` with us | \(paidNotSucceeded.count) |
        | `requires_action` without a live session at the end (of them handed out with a client token) | \(sessionNotLive.count) (\(sessionNotLiveWithClientToken.count)) |
        | succeeded without money at the provider / double charges / orphan charges | \(succeededWithoutCharge.count) / \(doubleCharges.count) / \(orphanCharges.count) |
        | lost / duplicate payments / replays answering another payment | \(lostPayments.count) / \(duplicatePayments.count) / \(replaysAnsweringAnotherPayment.count) |
        payments \(payments), by status \(statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        """
    }
}
