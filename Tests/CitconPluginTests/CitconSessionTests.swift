import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

/// A pending charge is handed out with a client token or not at all: the token call is retried, then the
/// charge is cancelled at Citcon and the attempt declined; a sync that finds the charge open re-issues one.
@Suite struct CitconSessionTests {
    static let chargeId = "2025110912345678901234"
    static let chargeToken = "0123456789abcdef0123456789abcdef"
    static let clientExpiry: Int64 = 1_762_686_400
    static let clientToken = Fixtures.success(Fixtures.tokenData(Fixtures.clientToken, expiry: clientExpiry))
    static let canceled = Fixtures.success(#"{"id":"\#(chargeId)","object":"cancel","status":"canceled"}"#)

    func host(token: OutboundResult = clientToken, cancel: OutboundResult = canceled) -> FakeHost {
        FakeHost(routes: [
            "POST /v1/charges": Fixtures.success(Fixtures.chargeData),
            "POST /v1/access-tokens": token,
            "POST /v1/cancels": cancel,
        ])
    }

    func paths(_ host: FakeHost) -> [String] {
        host.requests.map { $0.method + " " + String($0.url.dropFirst(Fixtures.baseURL.count)) }
    }

    @Test func aClientTokenCallFailingOnceIsRetried() async throws {
        let host = host()
        host.queue("POST /v1/access-tokens", [OutboundResult(kind: .response, status: 503)])
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .pending)
        #expect(outcome.nextAction?.data["client_token"] == .string(Fixtures.clientToken))
        #expect(outcome.nextAction?.data["charge_token"] == .string(Self.chargeToken))
        #expect(paths(host) == ["POST /v1/charges", "POST /v1/access-tokens", "POST /v1/access-tokens"])
    }

    @Test(arguments: [
        OutboundResult(kind: .response, status: 500), OutboundResult(kind: .notSent, reason: "refused"),
        OutboundResult(kind: .noResponse, reason: "timeout"),
    ])
    func aClientTokenFailingEveryTryCancelsTheChargeAndDeclines(tokenAnswer: OutboundResult) async throws {
        let host = host(token: tokenAnswer)
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .declined)
        #expect(outcome.code == "client_token_unavailable")
        #expect(outcome.retryable == false)
        #expect(outcome.nextAction == nil, "never a next action the app cannot use")
        #expect(outcome.providerPaymentId == Self.chargeId)
        #expect(outcome.providerStatus == "canceled")
        #expect(
            paths(host) == [
                "POST /v1/charges", "POST /v1/access-tokens", "POST /v1/access-tokens", "POST /v1/access-tokens",
                "POST /v1/cancels",
            ])
        let cancel = try Fixtures.json(host.requests.last)
        #expect(
            cancel
                == .object([
                    "id": .string(Self.chargeId), "reference": .string("att_1-cancel"),
                    "transaction_reference": .string("att_1"),
                ]))
        #expect(
            host.requests.last?.headers.contains(HTTPHeader("Authorization", "Bearer " + Fixtures.serverToken)) == true)
    }

    @Test func aRefusedPrivateKeyIsNotAskedAgain() async throws {
        let host = host(token: Fixtures.fail(code: "4010", message: "bad key", status: 401))
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "client_token_unavailable")
        #expect(paths(host) == ["POST /v1/charges", "POST /v1/access-tokens", "POST /v1/cancels"])
    }

    @Test func aMissingPrivateKeyForTheClientTokenCancelsTheCharge() async throws {
        var account = Fixtures.account()
        account.credentials["private_key"] = nil
        let host = host()
        let outcome = try await CitconProvider(host: host).authorize(Fixtures.authorizeRequest(), account: account)
        #expect(outcome.kind == .declined && outcome.nextAction == nil)
        #expect(paths(host) == ["POST /v1/charges", "POST /v1/cancels"])
    }

    @Test func aCancelNotConfirmedStillDeclinesAndSaysSo() async throws {
        let host = host(
            token: OutboundResult(kind: .response, status: 500), cancel: OutboundResult(kind: .response, status: 502))
        let outcome = try await CitconProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "client_token_unavailable")
        #expect(outcome.providerStatus == "initiated")
        #expect(outcome.message?.contains("expires unused") == true)
        #expect(!host.allLoggedText.contains(Fixtures.privateKey))
        #expect(!host.allLoggedText.contains(Fixtures.serverToken))
    }

    // MARK: Sync of an open charge

    static let openCharge =
        #"{"id":"\#(chargeId)","object":"charge","reference":"att_1","amount":1250,"currency":"USD","#
        + #""status":"initiated","charge_token":"\#(chargeToken)","expiry":1762601800}"#

    func syncHost(_ data: String, token: OutboundResult = clientToken) -> FakeHost {
        FakeHost(routes: [
            "GET /v1/transactions/att_1": Fixtures.success(data), "POST /v1/access-tokens": token,
        ])
    }

    @Test func aSyncFindingTheChargeOpenReissuesTheClientToken() async throws {
        let host = syncHost(Self.openCharge)
        let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: nil)
        let outcome = try await CitconProvider(host: host).sync(
            SyncRequest(payment: locator), account: Fixtures.account())
        #expect(outcome.kind == .pending)
        #expect(outcome.providerPaymentId == Self.chargeId)
        let action = try #require(outcome.nextAction)
        #expect(action.type == "citcon_sdk")
        #expect(action.data["client_token"] == .string(Fixtures.clientToken))
        #expect(action.data["charge_token"] == .string(Self.chargeToken))
        #expect(action.expiresAt == Date(timeIntervalSince1970: 1_762_601_800))
        #expect(try Fixtures.json(host.requests.last) == .object(["token_type": .string("client")]))
    }

    @Test func aSyncFindingAConfirmedChargeWaitingForTheWalletIssuesNoSession() async throws {
        let data = Self.openCharge.replacingOccurrences(of: #""status":"initiated""#, with: #""status":"pending""#)
        let host = syncHost(data)
        let outcome = try await CitconProvider(host: host).sync(
            SyncRequest(payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil)),
            account: Fixtures.account())
        #expect(outcome.kind == .pending && outcome.nextAction == nil)
        #expect(host.requests.count == 1)
    }

    @Test func aSyncFindingTheChargeOpenWithoutAClientTokenStaysUnknown() async throws {
        let host = syncHost(Self.openCharge, token: OutboundResult(kind: .response, status: 500))
        let outcome = try await CitconProvider(host: host).sync(
            SyncRequest(payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil)),
            account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "client_token_unavailable")
        #expect(outcome.nextAction == nil)
        #expect(host.requests.filter { $0.url.hasSuffix("/v1/access-tokens") }.count == 3)
    }

    @Test func aSyncFindingTheChargeOpenWithoutItsChargeTokenStaysUnknown() async throws {
        let data = #"{"id":"\#(Self.chargeId)","status":"initiated","amount":1250}"#
        let host = FakeHost(routes: ["GET /v1/transactions/\(Self.chargeId)": Fixtures.success(data)])
        let outcome = try await CitconProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "missing_charge_token")
        #expect(outcome.nextAction == nil)
        #expect(host.requests.count == 1, "no client token without a charge token to pair it with")
    }
}
