import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsVaultingTests {
    static let initRoute = Fixtures.route("walletInApp/walletInitialize")
    static let dataRoute = Fixtures.route("wallet/getWalletData")
    static let vaultingId = "vlt_01jc5x8k2m4n6p8q0r2s4t6v"

    @Test func walletInitialisationForAddingACard() async throws {
        let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
        let result = try await WorldlineSipsProvider(host: host).vaultingSession(
            VaultingSessionRequest(vaultingId: Self.vaultingId, customerId: "cust_7"), account: Fixtures.account())
        var expected = Fixtures.common("IR_MB_3.0")
        expected["merchantWalletId"] = .string(Fixtures.walletId)
        expected["sdkOperationName"] = .string("ADDCARD")
        try Fixtures.expectSealedRequest(host.requests.first, expected)
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/walletInApp/walletInitialize")
        let outcome = result.outcome
        #expect(outcome.kind == .pending)
        let action = try #require(outcome.nextAction)
        #expect(action.type == "sips_inapp_wallet")
        #expect(
            action.data == [
                "redirectionData": .string(Fixtures.redirectionData),
                "redirectionUrl": .string("http://127.0.0.1:9999/sips/inapp"),
                "redirectionVersion": .string("IR_MB_3.0"), "publicKeyValue": .string(Fixtures.publicKey),
                "sdkOperationName": .string("ADDCARD"), "merchantWalletId": .string(Fixtures.walletId),
            ])
        #expect(action.expiresAt == Fixtures.now.addingTimeInterval(900))
    }

    @Test func walletInitialisationFailures() async throws {
        let cases: [(OutboundResult, Outcome.Kind, String)] = [
            (Fixtures.initAnswer("03"), .declined, "03"), (Fixtures.initAnswer("99"), .unknown, "99"),
            (Fixtures.initAnswer("90"), .notSent, "90"),
            (Fixtures.json(.object(["redirectionStatusCode": .string("03")])), .unknown, "unsealed_response"),
        ]
        for (answer, kind, code) in cases {
            let host = FakeHost(routes: [Self.initRoute: answer])
            let result = try await WorldlineSipsProvider(host: host).vaultingSession(
                VaultingSessionRequest(vaultingId: Self.vaultingId, customerId: "c"), account: Fixtures.account())
            #expect(result.outcome.kind == kind && result.outcome.code == code, "\(code)")
        }
    }

    static func walletAnswer(_ code: String, cards: [JSONValue]? = nil) -> OutboundResult {
        var fields: [String: JSONValue] = ["walletResponseCode": .string(code)]
        fields["walletPaymentMeanDataList"] = cards.map(JSONValue.array)
        fields["walletCreationDateTime"] = .string("2025-11-08T12:06:40+01:00")
        return Fixtures.sealed(fields)
    }

    static func card(id: JSONValue, pan: String = "4100########1234", expiry: String = "202712") -> JSONValue {
        .object([
            "paymentMeanId": id, "paymentMeanAlias": .string("my card"), "paymentMeanBrand": .string("visa"),
            "maskedPan": .string(pan), "panExpiryDate": .string(expiry),
        ])
    }

    static func sync(_ answer: OutboundResult) async throws -> (VaultingSyncResult, FakeHost) {
        let host = FakeHost(routes: [dataRoute: answer])
        let result = try await WorldlineSipsProvider(host: host).syncVaulting(
            VaultingSyncRequest(vaultingId: vaultingId), account: Fixtures.account())
        return (result, host)
    }

    @Test func firstCardOfTheWalletIsCreated() async throws {
        let (result, host) = try await Self.sync(
            Self.walletAnswer("00", cards: [Self.card(id: .integer(12)), Self.card(id: .string("13"))]))
        var expected = Fixtures.common("WR_WS_2.27")
        expected["merchantWalletId"] = .string(Fixtures.walletId)
        try Fixtures.expectSealedRequest(host.requests.first, expected)
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/wallet/getWalletData")
        #expect(result.failure == nil)
        let event = try #require(result.event)
        #expect(event.kind == .created && event.correlationId == Self.vaultingId)
        #expect(event.credentialKind == "card" && event.paymentMethodType == "CARD")
        #expect(event.token == "\(Fixtures.walletId):12")
        #expect(
            event.display
                == CredentialDisplay(
                    brand: "VISA", last4: "1234", masked: "4100########1234", expiryMonth: 12, expiryYear: 2027))
    }

    @Test func theVaultedTokenPaysAsAWalletOrder() async throws {
        let (result, _) = try await Self.sync(Self.walletAnswer("00", cards: [Self.card(id: .string("77"))]))
        let token = try #require(result.event?.token)
        let card = try SipsMapping.walletCard(StoredCredential(id: "pm_1", kind: "card", token: token))
        #expect(card == SipsWalletCard(merchantWalletId: Fixtures.walletId, paymentMeanId: "77"))
    }

    @Test func maskedNumbersShowingTwoDigitsHaveNoLastFour() async throws {
        let (result, _) = try await Self.sync(
            Self.walletAnswer("00", cards: [Self.card(id: .integer(1), pan: "4100##########00", expiry: "202713")]))
        let display = try #require(result.event?.display)
        #expect(display.last4 == nil && display.masked == "4100##########00")
        #expect(display.expiryMonth == nil && display.expiryYear == nil)
    }

    @Test func emptyOrUnknownWalletsArePending() async throws {
        for answer in [Self.walletAnswer("00", cards: []), Self.walletAnswer("00"), Self.walletAnswer("25")] {
            let (result, _) = try await Self.sync(answer)
            #expect(result.failure == nil)
            #expect(result.event?.kind == .pending && result.event?.correlationId == Self.vaultingId)
            #expect(result.event?.token == nil)
        }
    }

    @Test func failedInquiriesAreFailures() async throws {
        let cases: [(OutboundResult, Outcome.Kind, String)] = [
            (Self.walletAnswer("99"), .unknown, "99"), (Self.walletAnswer("90"), .notSent, "90"),
            (Self.walletAnswer("03"), .declined, "03"),
            (OutboundResult(kind: .noResponse), .unknown, "no_response"),
            (Fixtures.json(.object(["walletResponseCode": .string("00")])), .unknown, "unsealed_response"),
        ]
        for (answer, kind, code) in cases {
            let (result, _) = try await Self.sync(answer)
            #expect(result.event == nil)
            #expect(result.failure?.kind == kind && result.failure?.code == code, "\(code)")
        }
    }
}
