import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineAuthorizeTests {
    static let session = #"""
        {"clientSessionId":"68a4b0b183a34016b4b694b97938f75b","customerId":"cust-1",\#
        "clientApiUrl":"https://payment.preprod.direct.worldline-solutions.com/",\#
        "assetUrl":"https://assets.test/","invalidTokens":[]}
        """#

    @Test func createsASessionAndReturnsItAsNextAction() async throws {
        let host = FakeHost(routes: ["POST /v2/MERCH1/sessions": Fixtures.json(Self.session, status: 201)])
        let outcome = try await WorldlineDirectProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(host.requests.count == 1)
        #expect(request.method == "POST" && request.url == "http://127.0.0.1:9999/v2/MERCH1/sessions")
        #expect(request.body == Data("{}".utf8))
        #expect(Fixtures.header("X-GCS-Idempotence-Key", of: request) == nil)
        #expect(outcome.kind == .pending)
        #expect(outcome.providerPaymentId == nil)
        let action = try #require(outcome.nextAction)
        #expect(action.type == "worldline_client_session")
        #expect(action.data["clientSessionId"] == .string("68a4b0b183a34016b4b694b97938f75b"))
        #expect(action.data["customerId"] == .string("cust-1"))
        #expect(action.data["clientApiUrl"] == .string("https://payment.preprod.direct.worldline-solutions.com/"))
        #expect(action.data["assetUrl"] == .string("https://assets.test/"))
        #expect(action.data["expires_at"] == .integer(1_762_600_000 + 10_800))
        #expect(action.expiresAt == Fixtures.now.addingTimeInterval(10_800))
    }

    @Test func sessionLifetimeComesFromTheAccountOption() async throws {
        let host = FakeHost(routes: ["POST /v2/MERCH1/sessions": Fixtures.json(Self.session)])
        let outcome = try await WorldlineDirectProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account(options: ["client_session_lifetime_seconds": "7200"])
        )
        #expect(outcome.nextAction?.data["expires_at"] == .integer(1_762_600_000 + 7_200))
        #expect(WorldlineDirectMapping.sessionLifetime(options: ["client_session_lifetime_seconds": "-5"]) == 10_800)
        #expect(WorldlineDirectMapping.sessionLifetime(options: ["client_session_lifetime_seconds": "x"]) == 10_800)
        // A lifetime longer than Worldline's 3 h is capped; Int64.max used to overflow the expiry time.
        #expect(
            WorldlineDirectMapping.sessionLifetime(options: [
                "client_session_lifetime_seconds": String(Int64.max)
            ]) == 10_800)
    }

    @Test func sessionFailuresAreClassified() async throws {
        let refused = FakeHost(routes: [
            "POST /v2/MERCH1/sessions": Fixtures.json(Fixtures.error(code: "9007"), status: 403)
        ])
        let declined = try await WorldlineDirectProvider(host: refused).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(declined.kind == .declined && declined.code == "9007" && declined.retryable == false)
        let down = FakeHost(routes: ["POST /v2/MERCH1/sessions": OutboundResult(kind: .notSent, reason: "refused")])
        let notSent = try await WorldlineDirectProvider(host: down).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(notSent.kind == .notSent)
    }
}
