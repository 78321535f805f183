import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineSecrecyTests {
    /// Answers that echo the secrets back, to prove nothing provider-written is copied blindly.
    static func echoing(status: Int) -> OutboundResult {
        let secret = Fixtures.secretApiKey
        return Fixtures.json(
            #"{"errorId":"\#(secret)","errors":[{"errorCode":"1","id":"\#(secret)","#
                + #""message":"key \#(secret)","retriable":false}]}"#,
            status: status)
    }

    @Test func noSecretInOutcomesOrLogs() async throws {
        var outcomes: [Outcome] = []
        var hosts: [FakeHost] = []
        for status in [400, 403, 409, 500, 502] {
            let host = FakeHost(routes: [
                "POST /v2/MERCH1/sessions": Self.echoing(status: status),
                "POST /v2/MERCH1/payments": Self.echoing(status: status),
                "GET /v2/MERCH1/payments/3066019730_0": Self.echoing(status: status),
                "POST /v2/MERCH1/payments/3066019730_0/refund": Self.echoing(status: status),
            ])
            hosts.append(host)
            let provider = WorldlineDirectProvider(host: host)
            outcomes.append(try await provider.authorize(Fixtures.authorizeRequest(), account: Fixtures.account()))
            outcomes.append(try await provider.complete(Fixtures.completeRequest(), account: Fixtures.account()))
            outcomes.append(
                try await provider.sync(SyncRequest(payment: Fixtures.locator), account: Fixtures.account()))
            outcomes.append(
                try await provider.refund(
                    RefundRequest(payment: Fixtures.locator, refundId: "r", amount: 1, currency: "EUR"),
                    account: Fixtures.account()))
        }
        let rejectHost = FakeHost()
        let body = Data(#"{"apiVersion":"v1"}"#.utf8)
        _ = try await WorldlineDirectProvider(host: rejectHost).notification(
            NotificationRequest(
                method: "POST", path: "/n",
                headers: [HTTPHeader("X-GCS-Signature", "bad"), HTTPHeader("X-GCS-KeyId", "whk-1")],
                body: body),
            account: Fixtures.account())
        hosts.append(rejectHost)
        let text =
            String(decoding: try JSONEncoder().encode(outcomes), as: UTF8.self)
            + hosts.map(\.allLoggedText).joined(separator: "\n")
        #expect(!hosts.flatMap(\.logs).isEmpty)
        for secret in Fixtures.secrets {
            #expect(!text.contains(secret))
        }
        #expect(!text.contains("eyJhbGciOiJSU0EtT0FFUCJ9"))  // the encrypted customer input is not echoed either
    }

    @Test func authorizationHeaderIsRedactedAndNeverCarriesTheSecret() async throws {
        let host = FakeHost(routes: [
            "GET /v2/MERCH1/payments/3066019730_0": Fixtures.json(Fixtures.payment(status: "CAPTURED", code: 9))
        ])
        _ = try await WorldlineDirectProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(request.redactHeaders == ["Authorization"])
        let headers = request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        #expect(!headers.contains(Fixtures.secretApiKey))
    }
}
