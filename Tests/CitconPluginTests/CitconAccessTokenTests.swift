import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconAccessTokenTests {
    @Test(arguments: ["server", "client"])
    func requestUsesThePrivateKeyAsBearer(kind: String) async throws {
        let host = FakeHost(routes: [
            "POST /v1/access-tokens": Fixtures.success(Fixtures.tokenData(Fixtures.serverToken, expiry: 1_762_681_312))
        ])
        _ = try await CitconProvider(host: host).accessToken(
            AccessTokenRequest(kind: kind), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(host.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.url == Fixtures.baseURL + "/v1/access-tokens")
        #expect(request.headers.contains(HTTPHeader("Authorization", "Bearer " + Fixtures.privateKey)))
        #expect(request.headers.contains(HTTPHeader("Content-Type", "application/json")))
        #expect(request.redactHeaders.contains("Authorization"))
        #expect(request.timeoutMs == nil)
        #expect(try Fixtures.json(request) == .object(["token_type": .string(kind)]))
    }

    @Test(arguments: [Int64(1_762_681_312), 1_762_681_312_000])
    func expiryInSecondsOrMilliseconds(expiry: Int64) async throws {
        let host = FakeHost(routes: [
            "POST /v1/access-tokens": Fixtures.success(Fixtures.tokenData(Fixtures.serverToken, expiry: expiry))
        ])
        let result = try await CitconProvider(host: host)
            .accessToken(AccessTokenRequest(kind: "server"), account: Fixtures.account())
        let token = try #require(result.token)
        #expect(token.token == Fixtures.serverToken)
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_762_681_312))
        #expect(result.failure == nil)
    }

    @Test func missingExpiryMeansTheDefaultLifetime() async throws {
        let host = FakeHost(routes: [
            "POST /v1/access-tokens": Fixtures.success(#"{"access_token":"UPI_x","token_type":"server"}"#)
        ])
        let result = try await CitconProvider(host: host)
            .accessToken(AccessTokenRequest(kind: "server"), account: Fixtures.account())
        #expect(result.token?.expiresAt == host.clock.addingTimeInterval(24 * 3600))
    }

    @Test func failuresAreClassified() async throws {
        let cases: [(OutboundResult, Outcome.Kind)] = [
            (OutboundResult(kind: .notSent, reason: "refused"), .notSent),
            (OutboundResult(kind: .noResponse, reason: "timeout"), .unknown),
            (OutboundResult(kind: .response, status: 500), .unknown),
            (Fixtures.fail(code: "4010", message: "unknown key", status: 401), .declined),
        ]
        for (answer, kind) in cases {
            let host = FakeHost(routes: ["POST /v1/access-tokens": answer])
            let result = try await CitconProvider(host: host)
                .accessToken(AccessTokenRequest(kind: "server"), account: Fixtures.account())
            #expect(result.token == nil)
            #expect(result.failure?.kind == kind)
        }
    }

    @Test func unknownKindIsRefusedWithoutARequest() async {
        let host = FakeHost()
        await #expect(throws: ProviderError.self) {
            _ = try await CitconProvider(host: host)
                .accessToken(AccessTokenRequest(kind: "admin"), account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }

    @Test func missingPrivateKeyIsMisconfigured() async {
        var account = Fixtures.account()
        account.credentials["private_key"] = nil
        await #expect(throws: ProviderError.misconfigured("credential private_key is missing")) {
            _ = try await CitconProvider(host: FakeHost()).accessToken(
                AccessTokenRequest(kind: "server"), account: account)
        }
    }
}
