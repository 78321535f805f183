import Foundation
import SwitchyardBench
import SwitchyardCommands
import SwitchyardCrypto

extension BenchFlows {
    /// The server-to-server charge: an Antom payment with a stored wallet agreement (set up once through
    /// Switchyard, the sandbox playing the shopper); alone, the signed `pay` call with the same token.
    static func antom(target: BenchTarget, http: BenchHTTP, run: String) async throws -> BenchFlow {
        guard let sandbox = target.sandboxURL else {
            throw BenchFailure("the antom flow needs the sandbox to set up its stored agreement (pass --demo-dir)")
        }
        let key = target.apiKey
        let auth = ("Authorization", "Bearer \(key)")
        let customer = "bench-\(run)"
        let first = await http.send(
            .POST, target.serverURL + "/v1/payments", headers: [auth],
            json: BenchHTTP.json([
                "amount": 1500, "currency": "PHP", "country": "PH", "method": "gcash",
                "reference": "bench-\(run)-setup",
                "customer": customer, "save_payment_method": true,
            ]))
        let created = BenchHTTP.object(first.body)
        guard let pm = created["saved_payment_method"] as? String,
            let next = created["next_action"] as? [String: Any], let data = next["data"] as? [String: Any],
            let session = data["paymentSessionId"] as? String
        else { throw BenchFailure("the Antom agreement payment failed (HTTP \(first.status))") }
        let completed = await http.send(
            .POST, sandbox + "/_sandbox/antom/sessions/\(session)/complete", json: BenchHTTP.json(["approve": true]))
        let accessToken = BenchHTTP.object(completed.body)["accessToken"] as? String
        try await waitUntilActive(target: target, http: http, customer: customer, paymentMethod: pm)

        let url = target.serverURL + "/v1/payments"
        var flow = BenchFlow(name: "antom") { reference in
            let body = BenchHTTP.json([
                "amount": 2300, "currency": "PHP", "country": "PH", "reference": reference, "customer": customer,
                "payment_method": pm,
            ])
            return await http.send(.POST, url, headers: target.paymentHeaders(reference: reference), json: body).status
        }
        guard let accessToken, let clientId = target.antomClientId, let pem = target.antomMerchantKey,
            let merchantKey = try? RSAPrivateKey(pem: pem)
        else {
            flow.providerSkipped = "provider alone (antom): the agreement token or merchant key is unknown"
            return flow
        }
        let path = "/ams/api/v1/payments/pay"
        let payURL = sandbox + "/antom" + path
        flow.provider = { reference in
            let amount: [String: Any] = ["currency": "PHP", "value": "2300"]
            let body = BenchHTTP.json([
                "productCode": "AGREEMENT_PAYMENT", "paymentRequestId": reference, "paymentAmount": amount,
                "paymentMethod": ["paymentMethodType": "GCASH", "paymentMethodId": accessToken],
                "order": ["referenceOrderId": reference, "orderDescription": "bench", "orderAmount": amount],
                "env": ["terminalType": "APP"], "settlementStrategy": ["settlementCurrency": "PHP"],
                "paymentNotifyUrl": "http://127.0.0.1:9/antom/notify",
                "paymentRedirectUrl": "https://shop.example/return",
            ])
            let time = String(Int64(Date().timeIntervalSince1970 * 1000))
            let content = Array("POST \(path)\n\(clientId).\(time).".utf8) + Array(body)
            guard let signature = try? merchantKey.signSHA256(content) else { return 0 }
            let value = Data(signature).base64EncodedString()
            return await http.send(
                .POST, payURL,
                headers: [
                    ("client-id", clientId), ("request-time", time),
                    ("signature", "algorithm=RSA256,signature=\(value)"),
                ], json: body
            ).status
        }
        return flow
    }

    /// Polls the stored payment method until the agreement is active (at most 30 s).
    static func waitUntilActive(target: BenchTarget, http: BenchHTTP, customer: String, paymentMethod: String)
        async throws
    {
        let url = target.serverURL + "/v1/customers/\(customer)/payment-methods/\(paymentMethod)"
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let answer = await http.send(.GET, url, headers: [("Authorization", "Bearer \(target.apiKey)")])
            if BenchHTTP.object(answer.body)["status"] as? String == "active" { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw BenchFailure("the Antom agreement did not become active within 30 s")
    }
}
