import Foundation
import NIOHTTP1
import SwitchyardBench
import SwitchyardCommands

/// One card payment of the routing experiment: the account routing chose and the answer it got.
struct BenchRoutingPayment: Sendable {
    enum Side: String, Sendable { case a = "A", b = "B" }

    /// The account of the payment's last attempt (nil: the payment never reached one).
    var account: Side?
    /// True when authorised, false when declined, nil on any other outcome (an error).
    var approved: Bool?
    /// The routing decision's ranking as `A: reason` lines, when the server explains one.
    var ranking: [String]?
    /// The payment's country.
    var country = "FR"
    /// The rollout arm that routed the payment (`draft` or `control`; nil: no rollout ran).
    var arm: String?
}

/// Sends the experiment's payments as a shop and its app do with Worldline Direct: create the payment,
/// encrypt the approving test card for its client session (the sandbox plays OnlinePaymentsKit), complete.
struct BenchRoutingPayer: Sendable {
    let http: BenchHTTP
    let serverURL: String
    let sandboxURL: String
    let apiKey: String
    let accounts: [String: BenchRoutingPayment.Side]

    /// The approving test card of the Worldline Direct sandbox.
    static let card = "4012000033330026"

    func pay(reference: String, country: String = "FR") async -> BenchRoutingPayment {
        let auth = [("Authorization", "Bearer \(apiKey)")]
        let created = await http.send(
            .POST, serverURL + "/v1/payments", headers: auth,
            json: BenchHTTP.json([
                "amount": 2500, "currency": "EUR", "country": country, "method": "card", "reference": reference,
                "capture_mode": "automatic", "return_url": "https://shop.example/return",
            ]))
        let payment = BenchHTTP.object(created.body)
        var result = BenchRoutingPayment(
            account: side(of: payment), ranking: ranking(of: payment), country: country,
            arm: (payment["routing"] as? [String: Any])?["arm"] as? String)
        guard created.status == 201, let id = payment["id"] as? String,
            let next = payment["next_action"] as? [String: Any], let data = next["data"] as? [String: Any],
            let session = data["clientSessionId"] as? String, let customer = data["customerId"] as? String
        else { return result }
        let encrypted = await http.send(
            .POST, sandboxURL + "/_sandbox/worldline-direct/encrypt",
            json: BenchHTTP.json([
                "clientSessionId": session, "customerId": customer, "cardNumber": Self.card, "expiryDate": "1230",
                "cvv": "123", "cardholderName": "Routing Bench",
            ]))
        guard let jwe = BenchHTTP.object(encrypted.body)["encryptedCustomerInput"] as? String else { return result }
        let completed = await http.send(
            .POST, serverURL + "/v1/payments/\(id)/complete", headers: auth,
            json: BenchHTTP.json(["payment_data": ["encrypted_customer_input": jwe]]))
        let final = BenchHTTP.object(completed.body)
        result.account = side(of: final) ?? result.account
        switch final["status"] as? String {
        case "succeeded", "authorized": result.approved = true
        case "failed": result.approved = false
        default: result.approved = nil
        }
        return result
    }

    /// Sends the payments `references`, `concurrency` at a time, each in the country `countries` gives
    /// by its position (cycling); the results in the order of `references`.
    func pay(_ references: [String], countries: [String] = ["FR"], concurrency: Int) async -> [BenchRoutingPayment] {
        let workers = max(1, min(concurrency, references.count))
        let progress = BenchProgress(label: "payments", total: references.count)
        let reporter = Task { await progress.report() }
        defer {
            reporter.cancel()
            progress.finish()
        }
        return await withTaskGroup(of: [(Int, BenchRoutingPayment)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var done: [(Int, BenchRoutingPayment)] = []
                    for index in stride(from: worker, to: references.count, by: workers) {
                        let country = countries.isEmpty ? "FR" : countries[index % countries.count]
                        done.append((index, await pay(reference: references[index], country: country)))
                        progress.advance()
                    }
                    return done
                }
            }
            var all = [BenchRoutingPayment](repeating: BenchRoutingPayment(), count: references.count)
            for await done in group {
                for (index, payment) in done { all[index] = payment }
            }
            return all
        }
    }

    private func side(of payment: [String: Any]) -> BenchRoutingPayment.Side? {
        let attempts = payment["attempts"] as? [[String: Any]] ?? []
        return (attempts.last?["provider_account"] as? String).flatMap { accounts[$0] }
    }

    private func ranking(of payment: [String: Any]) -> [String]? {
        let routing = payment["routing"] as? [String: Any]
        guard let ranking = routing?["ranking"] as? [[String: Any]] else { return nil }
        return ranking.map { entry in
            let id = entry["account_id"] as? String ?? "?"
            return "\(accounts[id]?.rawValue ?? id): \(entry["reason"] as? String ?? "-")"
        }
    }
}
