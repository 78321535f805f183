import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

/// No private key, IPN secret or access token may appear in an outcome or in anything logged.
@Suite struct CitconSecrecyTests {
    /// Answers that echo secrets back, as a hostile or buggy server might.
    static func leakyFail(status: Int, code: String) -> OutboundResult {
        Fixtures.fail(
            code: code, message: "bad \(Fixtures.privateKey) \(Fixtures.serverToken) \(Fixtures.clientToken)",
            status: status)
    }

    func expectNoSecret(in outcome: Outcome?, host: FakeHost) throws {
        let text = String(decoding: try JSONEncoder().encode(outcome?.withoutNextAction), as: UTF8.self)
        for secret in Fixtures.secrets {
            #expect(!text.contains(secret))
            #expect(!host.allLoggedText.contains(secret))
        }
        #expect(!host.allLoggedText.contains("UPI_"))
    }

    @Test(arguments: [
        leakyFail(status: 400, code: "4000"), leakyFail(status: 400, code: "4100"),
        leakyFail(status: 401, code: "4010"),
        leakyFail(status: 500, code: "5000"), leakyFail(status: 404, code: "4004"),
        OutboundResult(kind: .noResponse, reason: "timeout"), OutboundResult(kind: .notSent, reason: "refused"),
        Fixtures.success(#"{"id":"x","status":"fail"}"#),
    ])
    func everyFlowKeepsSecretsOut(answer: OutboundResult) async throws {
        let routes = [
            "POST /v1/charges": answer, "POST /v1/captures": answer, "POST /v1/cancels": answer,
            "POST /v1/refunds": answer, "GET /v1/transactions/\(Fixtures.locator.providerPaymentId!)": answer,
            "POST /v1/access-tokens": answer,
        ]
        let host = FakeHost(routes: routes)
        let provider = CitconProvider(host: host)
        let account = Fixtures.account()
        try expectNoSecret(in: try await provider.authorize(Fixtures.authorizeRequest(), account: account), host: host)
        let capture = CaptureRequest(
            payment: Fixtures.locator, operationId: "op", amount: 1, currency: "USD", isFinal: true)
        try expectNoSecret(in: try await provider.capture(capture, account: account), host: host)
        try expectNoSecret(
            in: try await provider.void(VoidRequest(payment: Fixtures.locator, operationId: "op"), account: account),
            host: host)
        let refund = RefundRequest(payment: Fixtures.locator, refundId: "rf", amount: 1, currency: "USD")
        try expectNoSecret(in: try await provider.refund(refund, account: account), host: host)
        try expectNoSecret(
            in: try await provider.sync(SyncRequest(payment: Fixtures.locator), account: account), host: host)
        let token = try await provider.accessToken(AccessTokenRequest(kind: "server"), account: account)
        try expectNoSecret(in: token.failure, host: host)
        #expect(host.requests.count == 6)
    }

    @Test func successfulFlowsLogNoTokens() async throws {
        let host = FakeHost(routes: [
            "POST /v1/charges": Fixtures.success(Fixtures.chargeData),
            "POST /v1/access-tokens": Fixtures.success(Fixtures.tokenData(Fixtures.clientToken, expiry: 1_762_686_400)),
        ])
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(
            outcome.nextAction?.data["client_token"] == .string(Fixtures.clientToken), "the token goes to the app only")
        #expect(outcome.message == nil)
        try expectNoSecret(in: outcome, host: host)
        #expect(!host.logs.isEmpty)
    }

    @Test func notificationsLogNoSecret() async throws {
        let host = FakeHost()
        let provider = CitconProvider(host: host)
        for body in [
            CitconIPNSamples.chargeForm, CitconIPNSamples.chargeForm.replacingOccurrences(of: "1250", with: "1"),
        ] {
            let request = NotificationRequest(method: "POST", path: "/n", headers: [], body: Data(body.utf8))
            let result = try await provider.notification(request, account: Fixtures.account())
            let text = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
            #expect(!text.contains(Fixtures.ipnSecret))
        }
        #expect(!host.allLoggedText.contains(Fixtures.ipnSecret))
        #expect(host.logs.count == 2)
    }
}

extension Outcome {
    /// The outcome without its next action (which legitimately carries the client token for the app).
    fileprivate var withoutNextAction: Outcome {
        var copy = self
        copy.nextAction = nil
        return copy
    }
}
