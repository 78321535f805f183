import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconAuthorizeTests {
    static let clientExpiry: Int64 = 1_762_686_400  // later than the charge's expiry

    func host(
        charge: OutboundResult = Fixtures.success(Fixtures.chargeData), token: OutboundResult? = nil
    ) -> FakeHost {
        FakeHost(routes: [
            "POST /v1/charges": charge,
            "POST /v1/access-tokens": token
                ?? Fixtures.success(Fixtures.tokenData(Fixtures.clientToken, expiry: Self.clientExpiry)),
        ])
    }

    @Test func chargeRequestShape() async throws {
        let host = host()
        _ = try await CitconProvider(host: host).authorize(Fixtures.authorizeRequest(), account: Fixtures.account())
        let charge = try #require(host.requests.first)
        #expect(charge.method == "POST")
        #expect(charge.url == Fixtures.baseURL + "/v1/charges")
        #expect(charge.headers.contains(HTTPHeader("Authorization", "Bearer " + Fixtures.serverToken)))
        #expect(charge.headers.contains(HTTPHeader("Content-Type", "application/json")))
        #expect(charge.redactHeaders.contains("Authorization"))
        #expect(charge.timeoutMs == nil)
        let body = try Fixtures.json(charge)
        #expect(body["payment"] == nil)
        let transaction = try #require(body["transaction"])
        #expect(transaction["reference"] == .string("att_1"))
        #expect(transaction["amount"] == .integer(1250))
        #expect(transaction["currency"] == .string("USD"))
        #expect(transaction["country"] == .string("US"))
        #expect(transaction["auto_capture"] == .bool(true))
        #expect(
            body["urls"]
                == .object([
                    "ipn": .string("https://switchyard.test/notifications/acct_citcon_1"),
                    "success": .string("https://shop.test/back"),
                    "fail": .string("https://shop.test/back"),
                ]))
    }

    @Test func manualCaptureAndNoReturnURL() async throws {
        let host = host()
        let request = Fixtures.authorizeRequest(capture: .manual, returnURL: nil)
        _ = try await CitconProvider(host: host).authorize(request, account: Fixtures.account())
        let body = try Fixtures.json(host.requests.first)
        #expect(body["transaction"]?["auto_capture"] == .bool(false))
        #expect(body["urls"] == .object(["ipn": .string("https://switchyard.test/notifications/acct_citcon_1")]))
    }

    @Test func pendingChargeCarriesTheSDKNextAction() async throws {
        let host = host()
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .pending)
        #expect(outcome.providerPaymentId == "2025110912345678901234")
        #expect(outcome.providerStatus == "initiated")
        let action = try #require(outcome.nextAction)
        #expect(action.type == "citcon_sdk")
        #expect(
            action.data == [
                "client_token": .string(Fixtures.clientToken),
                "client_token_expires_at": .integer(Self.clientExpiry),
                "charge_token": .string("0123456789abcdef0123456789abcdef"),
                "charge_expires_at": .integer(1_762_601_800),
                "environment": .string("sandbox"),
            ])
        #expect(action.expiresAt == Date(timeIntervalSince1970: 1_762_601_800))
        // The client token comes from the same token call, with the private key.
        let tokenCall = try #require(host.requests.last)
        #expect(host.requests.count == 2)
        #expect(tokenCall.url == Fixtures.baseURL + "/v1/access-tokens")
        #expect(try Fixtures.json(tokenCall) == .object(["token_type": .string("client")]))
        #expect(tokenCall.headers.contains(HTTPHeader("Authorization", "Bearer " + Fixtures.privateKey)))
    }

    @Test func expiryIsTheEarlierOfTheTwo() async throws {
        let early: Int64 = 1_762_600_600_000  // milliseconds, before the charge's expiry
        let host = host(token: Fixtures.success(Fixtures.tokenData(Fixtures.clientToken, expiry: early)))
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.nextAction?.expiresAt == Date(timeIntervalSince1970: 1_762_600_600))
        #expect(outcome.nextAction?.data["client_token_expires_at"] == .integer(1_762_600_600))
    }

    @Test func chargeWithoutExpiryLeavesItOut() async throws {
        let data = #"{"object":"charge","id":"c1","charge_token":"tok","status":"initiated","amount":1250}"#
        let outcome = try await CitconProvider(host: host(charge: Fixtures.success(data)))
            .authorize(Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.nextAction?.data["charge_expires_at"] == nil)
        #expect(outcome.nextAction?.expiresAt == Date(timeIntervalSince1970: TimeInterval(Self.clientExpiry)))
    }

    @Test func noServerTokenAsksTheHostForOne() async throws {
        let host = host()
        let outcome = try await CitconProvider(host: host)
            .authorize(Fixtures.authorizeRequest(), account: Fixtures.account(token: nil))
        #expect(outcome.kind == .authExpired)
        #expect(host.requests.isEmpty)
    }

    @Test func chargeFailuresAreClassified() async throws {
        let cases: [(OutboundResult, Outcome.Kind)] = [
            (OutboundResult(kind: .notSent, reason: "refused"), .notSent),
            (OutboundResult(kind: .noResponse, reason: "reset"), .unknown),
            (OutboundResult(kind: .response, status: 503), .unknown),
            (Fixtures.fail(code: "4010", message: "expired", status: 401), .authExpired),
            (Fixtures.fail(code: "4100", message: "duplicate request"), .unknown),
            (Fixtures.fail(code: "4000", message: "invalid currency"), .declined),
            (OutboundResult(kind: .response, status: 200, body: Data("{".utf8)), .unknown),
        ]
        for (answer, kind) in cases {
            let host = host(charge: answer)
            let outcome = try await CitconProvider(host: host)
                .authorize(Fixtures.authorizeRequest(), account: Fixtures.account())
            #expect(outcome.kind == kind)
            #expect(outcome.nextAction == nil)
            #expect(host.requests.count == 1, "no client token is fetched without a charge")
        }
    }

    @Test func nonPendingChargeIsMappedAsIs() async throws {
        let data = #"{"object":"charge","id":"c1","charge_token":"tok","status":"failed","amount":1250}"#
        let host = host(charge: Fixtures.success(data))
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .declined)
        #expect(outcome.providerPaymentId == "c1")
        #expect(outcome.nextAction == nil)
    }
}
