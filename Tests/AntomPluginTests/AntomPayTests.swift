import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomPayTests {
    static let paid =
        #"{\#(Fixtures.result()),"paymentId":"\#(Fixtures.paymentId)","paymentRequestId":"att_1","#
        + #""paymentAmount":{"currency":"PHP","value":"1000"},"paymentCreateTime":"2025-11-08T19:06:40+08:00","#
        + #""paymentTime":"2025-11-08T19:06:41+08:00"}"#

    static func payHost(_ answer: String = paid) -> FakeHost {
        FakeHost(routes: [Fixtures.route("payments/pay"): Fixtures.signed("payments/pay", answer)])
    }

    static let wallet = StoredCredential(
        id: "pm_1", kind: "wallet_agreement", token: Fixtures.accessToken, paymentMethodType: "GCASH")
    static let card = StoredCredential(id: "pm_2", kind: "card", token: Fixtures.cardToken, paymentMethodType: "CARD")

    @Test func laterWalletPaymentPaysWithTheAccessToken() async throws {
        let host = Self.payHost()
        let outcome = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(method: "gcash", credential: Self.wallet), account: Fixtures.account())
        #expect(host.requests.count == 1)
        let body = try Fixtures.body(host.requests.first)
        #expect(body["productCode"] == .string("AGREEMENT_PAYMENT"))
        #expect(
            body["paymentMethod"]
                == .object(["paymentMethodType": .string("GCASH"), "paymentMethodId": .string(Fixtures.accessToken)]))
        #expect(body["paymentRequestId"] == .string("att_1"))
        #expect(body["paymentAmount"] == .object(["currency": .string("PHP"), "value": .string("1000")]))
        #expect(body["paymentFactor"] == nil)
        #expect(body["agreementInfo"] == nil)
        #expect(body["paymentSessionExpiryTime"] == nil)
        #expect(body["env"] == .object(["terminalType": .string("APP")]))
        #expect(body["settlementStrategy"] == .object(["settlementCurrency": .string("PHP")]))
        #expect(body["paymentNotifyUrl"] == .string(Fixtures.notificationURL))
        #expect(body["paymentRedirectUrl"] == .string("myapp://antom/back"))
        #expect(body["order"]?["referenceOrderId"] == .string("order-42"))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.amount == 1000 && outcome.capturedAmount == 1000)
    }

    @Test func walletTypeFallsBackToTheMethod() async throws {
        let host = Self.payHost()
        let credential = StoredCredential(id: "pm_1", kind: "wallet_agreement", token: Fixtures.accessToken)
        _ = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(method: "kakaopay", currency: "KRW", credential: credential),
            account: Fixtures.account())
        #expect(try Fixtures.body(host.requests.first)["paymentMethod"]?["paymentMethodType"] == .string("KAKAOPAY"))
    }

    @Test func vaultedCardPaysWithAutomaticCapture() async throws {
        let host = Self.payHost()
        let outcome = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(method: "card", currency: "USD", credential: Self.card),
            account: Fixtures.account())
        let body = try Fixtures.body(host.requests.first)
        #expect(body["productCode"] == .string("CASHIER_PAYMENT"))
        #expect(
            body["paymentMethod"]
                == .object(["paymentMethodType": .string("CARD"), "paymentMethodId": .string(Fixtures.cardToken)]))
        #expect(
            body["paymentFactor"] == .object(["isAuthorization": .bool(true), "captureMode": .string("AUTOMATIC")]))
        #expect(outcome.kind == .succeeded && outcome.capturedAmount == 1000)
    }

    @Test func vaultedCardWithManualCaptureIsOnlyAuthorised() async throws {
        let host = Self.payHost()
        let outcome = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(method: "card", capture: .manual, credential: Self.card),
            account: Fixtures.account())
        let body = try Fixtures.body(host.requests.first)
        #expect(body["paymentFactor"]?["captureMode"] == .string("MANUAL"))
        #expect(outcome.kind == .authorized && outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.capturedAmount == nil)
    }

    @Test func payResultsAreClassified() async throws {
        let cases: [(String, Outcome.Kind, String?)] = [
            ("{\(Fixtures.result("U", "PAYMENT_IN_PROCESS")),\"paymentId\":\"p\"}", .unknown, "PAYMENT_IN_PROCESS"),
            ("{\(Fixtures.result("F", "USER_BALANCE_NOT_ENOUGH"))}", .declined, "USER_BALANCE_NOT_ENOUGH"),
            ("{\(Fixtures.result("F", "INVALID_ACCESS_TOKEN"))}", .declined, "INVALID_ACCESS_TOKEN"),
            ("{\(Fixtures.result("U", "REQUEST_TRAFFIC_EXCEED_LIMIT"))}", .notSent, "REQUEST_TRAFFIC_EXCEED_LIMIT"),
        ]
        for (answer, kind, code) in cases {
            let outcome = try await AntomProvider(host: Self.payHost(answer)).authorize(
                Fixtures.authorizeRequest(credential: Self.wallet), account: Fixtures.account())
            #expect(outcome.kind == kind && outcome.code == code, "\(answer)")
        }
    }

    @Test func unknownCredentialKindIsRefusedWithoutSending() async {
        let host = FakeHost()
        let other = StoredCredential(id: "pm_3", kind: "bank_mandate", token: "t")
        await #expect(
            throws: ProviderError(code: "bad_request", message: "stored credential kind is not supported by Antom")
        ) {
            try await AntomProvider(host: host).authorize(
                Fixtures.authorizeRequest(credential: other), account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }
}
