import Foundation
import ProviderSandbox
import SwitchyardBench
import SwitchyardCommands
import SwitchyardCrypto

extension BenchFlows {
    /// The Worldline Direct card flow: `POST /v1/payments` (EUR card, routed to Worldline Direct), the app's
    /// part (the client API's public key, the card encrypted as OnlinePaymentsKit's JWE), then
    /// `POST /v1/payments/{id}/complete` with it. Alone: the signed session and CreatePayment calls with the
    /// same app part between them.
    static func worldline(target: BenchTarget, http: BenchHTTP) async throws -> BenchFlow {
        let url = target.serverURL + "/v1/payments"
        let auth = ("Authorization", "Bearer \(target.apiKey)")
        var flow = BenchFlow(name: "worldline") { reference in
            let body = BenchHTTP.json([
                "amount": 2500, "currency": "EUR", "country": "DE", "method": "card", "reference": reference,
                "return_url": "https://shop.example/return",
            ])
            let created = await http.send(.POST, url, headers: target.paymentHeaders(reference: reference), json: body)
            guard created.status == 201 else { return created.status }
            let payment = BenchHTTP.object(created.body)
            guard let id = payment["id"] as? String, let next = payment["next_action"] as? [String: Any],
                let data = next["data"] as? [String: Any], let session = AppSession(data)
            else { return 0 }
            guard let input = await session.encryptedCard(http: http) else { return 0 }
            var headers = [auth]
            if target.idempotencyKeys { headers.append(("Idempotency-Key", reference + "-complete")) }
            let completed = await http.send(
                .POST, url + "/\(id)/complete", headers: headers,
                json: BenchHTTP.json(["payment_data": ["encrypted_customer_input": input]]))
            guard completed.status == 200 else { return completed.status }
            return BenchHTTP.object(completed.body)["status"] as? String == "succeeded" ? 200 : 0
        }
        guard let sandbox = target.sandboxURL, let secret = target.worldlineSecretAPIKey else {
            flow.providerSkipped = "provider alone (worldline): sandbox URL and Worldline key unknown (no --demo-dir)"
            return flow
        }
        let signer = WorldlineSigner(base: sandbox + "/worldline-direct", secretAPIKey: secret)
        flow.provider = { reference in
            let opened = await signer.post(http, "sessions", json: BenchHTTP.json([:]))
            guard opened.status == 201, let session = AppSession(BenchHTTP.object(opened.body)),
                let input = await session.encryptedCard(http: http)
            else { return opened.status == 201 ? 0 : opened.status }
            let amount: [String: Any] = ["amount": 2500, "currencyCode": "EUR"]
            let created = await signer.post(
                http, "payments",
                json: BenchHTTP.json([
                    "encryptedCustomerInput": input,
                    "order": ["amountOfMoney": amount, "references": ["merchantReference": reference]],
                    "cardPaymentMethodSpecificInput": [
                        "authorizationMode": "SALE", "returnUrl": "https://shop.example/return",
                    ],
                    "feedbacks": ["webhooksUrls": ["http://127.0.0.1:9/worldline/webhooks"]],
                ]))
            return created.status
        }
        return flow
    }

    /// A client session as the app receives it, and the app's part with it: fetch the session's public key
    /// and encrypt the card that authorises.
    struct AppSession: Sendable {
        var clientSessionId: String
        var customerId: String
        var clientApiUrl: String

        init?(_ data: [String: Any]) {
            guard let session = data["clientSessionId"] as? String, let customer = data["customerId"] as? String,
                let api = data["clientApiUrl"] as? String
            else { return nil }
            clientSessionId = session
            customerId = customer
            clientApiUrl = api
        }

        func encryptedCard(http: BenchHTTP) async -> String? {
            let key = await http.send(
                .GET, clientApiUrl + "/v1/\(customerId)/crypto/publickey",
                headers: [("Authorization", "GCS v1Client:\(clientSessionId)")])
            let body = BenchHTTP.object(key.body)
            guard let keyId = body["keyId"] as? String, let text = body["publicKey"] as? String,
                let publicKey = try? RSAPublicKey(keyText: text)
            else { return nil }
            return try? WorldlineDirectSandbox.encrypt(
                card: WorldlineDirectCardInput(
                    cardNumber: WorldlineDirectTestCard.authorised, expiryDate: "1230", cvv: "123",
                    cardholderName: "Bench Shopper"),
                clientSessionId: clientSessionId, keyId: keyId, publicKey: publicKey)
        }
    }

    /// Signs the demo merchant's server-API calls (`v1HMAC`) as the plugin does.
    struct WorldlineSigner: Sendable {
        var base: String
        var secretAPIKey: String
        var merchantId = "demo-merchant"
        var apiKeyId = "demo-api-key"

        func post(_ http: BenchHTTP, _ resource: String, json: Data) async -> (status: Int, body: Data) {
            let path = "/v2/\(merchantId)/\(resource)"
            let date = WorldlineDirectAuthenticator.httpDate(Date())
            let text = WorldlineDirectAuthenticator.stringToSign(
                method: "POST", contentType: "application/json", date: date, headers: [], resource: path)
            let authorization = WorldlineDirectAuthenticator.authorization(
                apiKeyId: apiKeyId, secretApiKey: secretAPIKey, stringToSign: text)
            return await http.send(
                .POST, base + path, headers: [("Date", date), ("Authorization", authorization)], json: json)
        }
    }
}
