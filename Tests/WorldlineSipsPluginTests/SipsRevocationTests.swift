import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsRevocationTests {
    static let route = Fixtures.route("wallet/deletePaymentMean")
    static let token = "\(Fixtures.walletId):12"

    static func request(kind: String = "card", token: String = token) -> RevokeCredentialRequest {
        RevokeCredentialRequest(
            credential: StoredCredential(id: "pm_1", kind: kind, token: token, paymentMethodType: "CARD"),
            customerId: "cust_7", operationId: "rvk_1")
    }

    static func answer(_ code: String, errorField: String? = nil) -> OutboundResult {
        var fields: [String: JSONValue] = ["walletResponseCode": .string(code)]
        if code == "00" { fields["walletActionDateTime"] = .string("2025-11-08T12:06:40+01:00") }
        fields["errorFieldName"] = errorField.map(JSONValue.string)
        return Fixtures.sealed(fields)
    }

    static func revoke(_ answer: OutboundResult, request: RevokeCredentialRequest = request()) async throws
        -> (RevokeCredentialResult, FakeHost)
    {
        let host = FakeHost(routes: [route: answer])
        let result = try await WorldlineSipsProvider(host: host).revokeCredential(request, account: Fixtures.account())
        return (result, host)
    }

    @Test func manifestOffersRevocation() {
        #expect(WorldlineSipsProvider.manifest.flows.contains(.revokeCredential))
    }

    @Test func deletesTheCardFromItsWalletWithASealedRequest() async throws {
        let (result, host) = try await Self.revoke(Self.answer("00"))
        #expect(host.requests.count == 1)
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/wallet/deletePaymentMean")
        var expected = Fixtures.common("WR_WS_2.27")
        expected["merchantWalletId"] = .string(Fixtures.walletId)
        expected["paymentMeanId"] = .string("12")
        try Fixtures.expectSealedRequest(host.requests.first, expected)
        #expect(result == .revoked)
    }

    @Test func theWalletInterfaceVersionOptionApplies() async throws {
        let host = FakeHost(routes: [Self.route: Self.answer("00")])
        _ = try await WorldlineSipsProvider(host: host).revokeCredential(
            Self.request(), account: Fixtures.account(options: ["interface_version_wallet": "WR_WS_2.31"]))
        #expect(try Fixtures.body(host.requests.first)["interfaceVersion"] == .string("WR_WS_2.31"))
    }

    @Test func aCardSipsNoLongerHoldsIsRevoked() async throws {
        let (result, _) = try await Self.revoke(Self.answer("25", errorField: "paymentMeanId"))
        #expect(result.status == .revoked && result.code == "25")
    }

    @Test func answersThatDoNotRevokeKeepTheirClass() async throws {
        let cases: [(OutboundResult, RevokeCredentialResult.Status, String)] = [
            (Self.answer("03"), .declined, "03"), (Self.answer("30", errorField: "merchantWalletId"), .declined, "30"),
            (Self.answer("40"), .declined, "40"), (Self.answer("90"), .notSent, "90"),
            (Self.answer("99"), .unknown, "99"), (Self.answer("94"), .unknown, "duplicate_transaction"),
            (Self.answer("77"), .unknown, "unrecognised_code"),
            (OutboundResult(kind: .noResponse), .unknown, "no_response"),
            (OutboundResult(kind: .notSent, reason: "refused"), .notSent, "not_sent"),
            (Fixtures.json(.object(["walletResponseCode": .string("00")])), .unknown, "unsealed_response"),
            (Fixtures.sealed(["walletResponseCode": .string("00")], secret: "other"), .unknown, "bad_response_seal"),
            (Fixtures.json(.object([:]), status: 503), .unknown, "http_503"),
        ]
        for (answer, status, code) in cases {
            let (result, _) = try await Self.revoke(answer)
            #expect(result.status == status && result.code == code, "\(code)")
        }
    }

    @Test func somethingOtherThanAWalletCardIsRefusedBeforeSending() async throws {
        for request in [
            Self.request(kind: "wallet_agreement"), Self.request(token: "no-colon"), Self.request(token: "w:1:2"),
            Self.request(token: ":12"),
        ] {
            let host = FakeHost(routes: [Self.route: Self.answer("00")])
            await #expect(throws: ProviderError.self) {
                _ = try await WorldlineSipsProvider(host: host).revokeCredential(request, account: Fixtures.account())
            }
            #expect(host.requests.isEmpty)
        }
    }

    @Test func neitherTheTokenNorTheSealIsLogged() async throws {
        for answer in [Self.answer("00"), Self.answer("03"), Fixtures.json(.object([:]))] {
            let (_, host) = try await Self.revoke(answer)
            let seal = try #require(try Fixtures.body(host.requests.first)["seal"]?.stringValue)
            #expect(!host.logs.isEmpty)
            #expect(!host.allLoggedText.contains(Self.token))
            #expect(!host.allLoggedText.contains(seal))
        }
    }
}
