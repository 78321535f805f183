import Foundation
import NIOHTTP1
import SwitchyardCommands
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
    /// The flows a running deployment can be measured with, whatever its providers: the Citcon session flow
    /// (its provider-alone reference needs the sandbox, which `switchyard bench --demo-dir` knows).
    package static let shared = [
        BenchFlowMaker("citcon") { target, http, _ in try await citcon(target: target, http: http) }
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
}
