import Foundation
import NIOCore

/// Calls the Citcon emulator the way a merchant server (and the mobile SDK) would.
struct CitconTestClient {
    let baseURL: String

    func requestToken(privateKey: String?, kind: String = "server") async throws -> Reply {
        try await send(.post, baseURL + "/v1/access-tokens", bearer: privateKey, json: ["token_type": kind])
    }

    /// A token, or a failed expectation's error when the sandbox refuses.
    func token(_ privateKey: String = TestMerchants.m1.privateKey, kind: String = "server") async throws -> String {
        let reply = try await requestToken(privateKey: privateKey, kind: kind)
        guard let token = reply.string("access_token") else { throw TestFailure("no token: \(reply.status)") }
        return token
    }

    func createCharge(
        token: String,
        reference: String,
        amount: Int64,
        autoCapture: Bool = true,
        ipn: String? = nil
    ) async throws -> Reply {
        var urls: [String: Any] = ["success": "https://merchant.example/ok", "fail": "https://merchant.example/ko"]
        if let ipn { urls["ipn"] = ipn }
        let body: [String: Any] = [
            "transaction": [
                "reference": reference, "amount": amount, "currency": "USD", "country": "US",
                "auto_capture": autoCapture, "note": "test order",
            ],
            "urls": urls,
        ]
        return try await send(.post, baseURL + "/v1/charges", bearer: token, json: body)
    }

    func confirm(
        token: String,
        chargeToken: String,
        method: String = "alipay",
        timeout: TimeAmount = .seconds(10)
    ) async throws -> Reply {
        try await send(
            .post,
            baseURL + "/v1/charges/\(chargeToken)",
            bearer: token,
            json: ["payment": ["method": method]],
            timeout: timeout
        )
    }

    func inquire(token: String, id: String, timeout: TimeAmount = .seconds(10)) async throws -> Reply {
        try await send(.get, baseURL + "/v1/transactions/\(id)", bearer: token, timeout: timeout)
    }

    func capture(token: String, id: String, reference: String, amount: Int64) async throws -> Reply {
        try await send(
            .post,
            baseURL + "/v1/captures",
            bearer: token,
            json: ["id": id, "reference": reference, "amount": amount]
        )
    }

    func cancel(token: String, id: String, reference: String, chargeReference: String) async throws -> Reply {
        try await send(
            .post,
            baseURL + "/v1/cancels",
            bearer: token,
            json: ["id": id, "reference": reference, "transaction_reference": chargeReference]
        )
    }

    func refund(token: String, id: String, reference: String, amount: Int64) async throws -> Reply {
        try await send(
            .post,
            baseURL + "/v1/refunds",
            bearer: token,
            json: ["id": id, "reference": reference, "amount": amount, "note": "test refund"]
        )
    }

    /// Creates a charge and confirms it; returns the confirm reply.
    func paidCharge(
        token: String,
        reference: String,
        amount: Int64,
        autoCapture: Bool = true,
        ipn: String? = nil
    ) async throws -> Reply {
        let created = try await createCharge(
            token: token,
            reference: reference,
            amount: amount,
            autoCapture: autoCapture,
            ipn: ipn
        )
        guard let chargeToken = created.string("charge_token") else {
            throw TestFailure("charge not created: \(created.status) \(created.code ?? "-")")
        }
        return try await confirm(token: token, chargeToken: chargeToken)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
