import Foundation
import NIOHTTP1
import SwitchyardCrypto

/// What the bench talks to: the Switchyard API and, when known, the sandbox and its demo merchants.
package struct BenchTarget: Sendable {
    package var serverURL: String
    package var apiKey: String
    /// The sandbox's base URL, for the provider-alone reference and the Antom agreement setup.
    package var sandboxURL: String?
    package var citconPrivateKey: String?
    package var antomClientId: String?
    package var antomMerchantKey: String?
    /// The demo Worldline Direct merchant's secret API key, to sign the provider-alone calls.
    package var worldlineSecretAPIKey: String?
    /// Whether each payment carries an `Idempotency-Key` (its reference), as a careful merchant sends it.
    package var idempotencyKeys = true

    package init(
        serverURL: String, apiKey: String, sandboxURL: String? = nil, citconPrivateKey: String? = nil,
        antomClientId: String? = nil, antomMerchantKey: String? = nil, worldlineSecretAPIKey: String? = nil
    ) {
        self.serverURL = serverURL
        self.apiKey = apiKey
        self.sandboxURL = sandboxURL
        self.citconPrivateKey = citconPrivateKey
        self.antomClientId = antomClientId
        self.antomMerchantKey = antomMerchantKey
        self.worldlineSecretAPIKey = worldlineSecretAPIKey
    }

    /// The headers of a payment request with `reference`.
    package func paymentHeaders(reference: String) -> [(String, String)] {
        let auth = ("Authorization", "Bearer \(apiKey)")
        return idempotencyKeys ? [auth, ("Idempotency-Key", reference)] : [auth]
    }
}

/// One flow ready to run: its Switchyard call and, when possible, the same provider calls alone.
package struct BenchFlow: Sendable {
    package var name: String
    package var switchyard: @Sendable (_ reference: String) async -> Int
    package var provider: (@Sendable (_ reference: String) async -> Int)?
    /// Why the provider-alone reference is not measured.
    package var providerSkipped: String?

    package init(name: String, switchyard: @escaping @Sendable (_ reference: String) async -> Int) {
        self.name = name
        self.switchyard = switchyard
    }
}

package struct BenchFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

package enum BenchFlows {
    /// The flows that need no emulator code in the bench itself, in the order they run.
    package static let shared = [
        BenchFlowMaker("citcon") { target, http, _ in try await citcon(target: target, http: http) },
        BenchFlowMaker("antom") { target, http, run in try await antom(target: target, http: http, run: run) },
    ]

    /// The Citcon session flow: `POST /v1/payments` routed to Citcon (US, USD, alipay); alone, the charge
    /// with the server token (fetched once, as the cached token is) and the client token call.
    package static func citcon(target: BenchTarget, http: BenchHTTP) async throws -> BenchFlow {
        let url = target.serverURL + "/v1/payments"
        var flow = BenchFlow(name: "citcon") { reference in
            let body = BenchHTTP.json([
                "amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": reference,
            ])
            return await http.send(.POST, url, headers: target.paymentHeaders(reference: reference), json: body).status
        }
        guard let sandbox = target.sandboxURL, let privateKey = target.citconPrivateKey else {
            flow.providerSkipped = "provider alone (citcon): sandbox URL and Citcon key unknown (no --demo-dir)"
            return flow
        }
        let tokens = sandbox + "/citcon/v1/access-tokens"
        let issued = await http.send(
            .POST, tokens, headers: [("Authorization", "Bearer \(privateKey)")],
            json: BenchHTTP.json(["token_type": "server"]))
        guard let data = BenchHTTP.object(issued.body)["data"] as? [String: Any],
            let serverToken = data["access_token"] as? String
        else { throw BenchFailure("the Citcon sandbox issued no server token (HTTP \(issued.status))") }
        let charges = sandbox + "/citcon/v1/charges"
        flow.provider = { reference in
            let charge = BenchHTTP.json([
                "transaction": [
                    "reference": reference, "amount": 1234, "currency": "USD", "country": "US", "auto_capture": true,
                ],
                "urls": ["ipn": "http://127.0.0.1:9/citcon/ipn"],
            ])
            let created = await http.send(
                .POST, charges, headers: [("Authorization", "Bearer \(serverToken)")], json: charge)
            guard (200..<300).contains(created.status) else { return created.status }
            return await http.send(
                .POST, tokens, headers: [("Authorization", "Bearer \(privateKey)")],
                json: BenchHTTP.json(["token_type": "client"])
            ).status
        }
        return flow
    }

    /// The server-to-server charge: an Antom payment with a stored wallet agreement (set up once through
    /// Switchyard, the sandbox playing the shopper); alone, the signed `pay` call with the same token.
    package static func antom(target: BenchTarget, http: BenchHTTP, run: String) async throws -> BenchFlow {
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
    package static func waitUntilActive(target: BenchTarget, http: BenchHTTP, customer: String, paymentMethod: String)
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
