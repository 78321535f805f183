import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomAuthorizeTests {
    static let sessionAnswer =
        #"{\#(Fixtures.result()),"paymentSessionData":"UNvjVWnWPXJA4BgW+vfjsQj7PbOraafHY19X+6EqMz6Kvvmsdk+akdLvo"#
        + #"ShW5avHX8e8J15P8uNVEf/PcCMyXg==&&SG&&111","#
        + #""paymentSessionId":"UNvjVWnWPXJA4BgW","paymentSessionExpiryTime":"2025-11-08T19:36:40+08:00","#
        + #""normalUrl":"https://open-sea-global.alipay.com/api/open/session?id=UNvj"}"#

    static func sessionHost(_ answer: String = sessionAnswer) -> FakeHost {
        FakeHost(routes: [
            Fixtures.route("payments/createPaymentSession"): Fixtures.signed("payments/createPaymentSession", answer)
        ])
    }

    @Test func firstWalletPaymentCreatesAPaymentSession() async throws {
        let host = Self.sessionHost()
        let setup = CredentialSetup(correlationId: "auth_state_1", customerId: "cust_7")
        let outcome = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(setup: setup), account: Fixtures.account())
        #expect(host.requests.count == 1)
        let body = try Fixtures.body(host.requests.first)
        #expect(body["productCode"] == .string("AGREEMENT_PAYMENT"))
        #expect(body["productScene"] == .string("EASY_PAY"))
        #expect(body["paymentRequestId"] == .string("att_1"))
        #expect(body["paymentAmount"] == .object(["currency": .string("PHP"), "value": .string("1000")]))
        #expect(body["paymentMethod"] == .object(["paymentMethodType": .string("GCASH")]))
        #expect(body["agreementInfo"] == .object(["authState": .string("auth_state_1")]))
        #expect(body["order"]?["referenceOrderId"] == .string("order-42"))
        #expect(body["order"]?["orderDescription"] == .string("order-42"))
        #expect(body["order"]?["orderAmount"] == body["paymentAmount"])
        #expect(body["order"]?["buyer"] == .object(["referenceBuyerId": .string("cust_7")]))
        #expect(body["env"] == .object(["terminalType": .string("APP")]))
        #expect(body["settlementStrategy"] == .object(["settlementCurrency": .string("PHP")]))
        #expect(body["paymentNotifyUrl"] == .string(Fixtures.notificationURL))
        #expect(body["paymentRedirectUrl"] == .string("myapp://antom/back"))
        #expect(body["paymentSessionExpiryTime"] == .string("2025-11-08T12:06:40+00:00"))
        #expect(body["merchantRegion"] == nil)

        #expect(outcome.kind == .pending && outcome.providerPaymentId == nil)
        let action = try #require(outcome.nextAction)
        #expect(action.type == "antom_payment_session")
        #expect(action.data["paymentSessionData"]?.stringValue?.hasPrefix("UNvjVWnWPXJA4BgW+vfjsQj7") == true)
        #expect(action.data["paymentSessionId"] == .string("UNvjVWnWPXJA4BgW"))
        #expect(action.data["paymentSessionExpiryTime"] == .string("2025-11-08T19:36:40+08:00"))
        #expect(action.data["normalUrl"] == .string("https://open-sea-global.alipay.com/api/open/session?id=UNvj"))
        #expect(action.expiresAt == Date(timeIntervalSince1970: 1_762_600_000 + 1_800))
    }

    @Test func agreementInfoOnlyWhenACredentialIsSetUp() async throws {
        let host = Self.sessionHost()
        _ = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(method: "alipay_cn", customerId: nil, returnURL: nil),
            account: Fixtures.account(options: ["return_url": "https://shop.example/return"])
        )
        let body = try Fixtures.body(host.requests.first)
        #expect(body["agreementInfo"] == nil)
        #expect(body["paymentMethod"]?["paymentMethodType"] == .string("ALIPAY_CN"))
        #expect(body["order"]?["buyer"] == nil)
        #expect(body["paymentRedirectUrl"] == .string("https://shop.example/return"), "the account's return URL")
    }

    @Test func withoutAnyReturnURLNothingIsSentAndTheNotificationURLIsNeverUsed() async throws {
        let host = Self.sessionHost()
        await #expect {
            _ = try await AntomProvider(host: host).authorize(
                Fixtures.authorizeRequest(method: "alipay_cn", customerId: nil, returnURL: nil),
                account: Fixtures.account())
        } throws: { error in
            (error as? ProviderError)?.code == "return_url_required"
        }
        #expect(host.requests.isEmpty)
    }

    @Test func buyerComesFromTheSetupWhenTheRequestHasNoCustomer() async throws {
        let host = Self.sessionHost()
        let setup = CredentialSetup(correlationId: "s", customerId: "cust_from_setup")
        _ = try await AntomProvider(host: host).authorize(
            Fixtures.authorizeRequest(customerId: nil, setup: setup), account: Fixtures.account())
        #expect(
            try Fixtures.body(host.requests.first)["order"]?["buyer"]?["referenceBuyerId"] == .string("cust_from_setup")
        )
    }

    @Test func accountOptionsShapeTheSession() async throws {
        let host = Self.sessionHost(#"{\#(Fixtures.result()),"paymentSessionData":"d"}"#)
        let options = [
            "session_lifetime_seconds": "600", "settlement_currency": "usd", "product_scene": "CHECKOUT_PAYMENT",
            "merchant_region": "PH",
        ]
        var request = Fixtures.authorizeRequest()
        request.paymentData = ["order_description": .string("Two coffees")]
        let outcome = try await AntomProvider(host: host).authorize(
            request, account: Fixtures.account(options: options))
        let body = try Fixtures.body(host.requests.first)
        #expect(body["paymentSessionExpiryTime"] == .string("2025-11-08T11:16:40+00:00"))
        #expect(body["settlementStrategy"]?["settlementCurrency"] == .string("USD"))
        #expect(body["productScene"] == .string("CHECKOUT_PAYMENT"))
        #expect(body["merchantRegion"] == .string("PH"))
        #expect(body["order"]?["orderDescription"] == .string("Two coffees"))
        // Without Antom's expiry the session lives as long as we asked.
        #expect(outcome.nextAction?.expiresAt == Fixtures.now.addingTimeInterval(600))
        #expect(outcome.nextAction?.data["paymentSessionExpiryTime"] == .string("2025-11-08T11:16:40+00:00"))
        #expect(outcome.nextAction?.data["normalUrl"] == nil)
    }

    @Test func sessionLifetimeIsClampedToAntomsHour() {
        #expect(AntomMapping.sessionLifetime(options: [:]) == 3_600)
        #expect(AntomMapping.sessionLifetime(options: ["session_lifetime_seconds": "7200"]) == 3_600)
        #expect(AntomMapping.sessionLifetime(options: ["session_lifetime_seconds": "5"]) == 60)
        #expect(AntomMapping.sessionLifetime(options: ["session_lifetime_seconds": "-5"]) == 60)
        #expect(AntomMapping.sessionLifetime(options: ["session_lifetime_seconds": "x"]) == 3_600)
    }

    @Test func isoTimesCarryAnOffset() {
        #expect(AntomMapping.isoTime(Fixtures.now) == "2025-11-08T11:06:40+00:00")
        #expect(AntomMapping.isoTime(Date(timeIntervalSince1970: 0.9)) == "1970-01-01T00:00:00+00:00")
        #expect(AntomMapping.parseTime("2025-11-08T19:36:40+08:00") == Date(timeIntervalSince1970: 1_762_601_800))
        #expect(AntomMapping.parseTime("2025-11-08T11:36:40Z") == Date(timeIntervalSince1970: 1_762_601_800))
        #expect(AntomMapping.parseTime("2025-11-08T11:36:40.500Z") == Date(timeIntervalSince1970: 1_762_601_800.5))
        #expect(AntomMapping.parseTime("yesterday") == nil)
    }

    @Test func sessionFailuresAreClassified() async throws {
        let declined = Self.sessionHost("{\(Fixtures.result("F", "PARAM_ILLEGAL"))}")
        let outcome = try await AntomProvider(host: declined).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "PARAM_ILLEGAL" && outcome.retryable == false)
        let inProcess = Self.sessionHost("{\(Fixtures.result("U", "PAYMENT_IN_PROCESS"))}")
        #expect(
            try await AntomProvider(host: inProcess).authorize(Fixtures.authorizeRequest(), account: Fixtures.account())
                .kind == .unknown)
        let down = FakeHost(routes: [
            Fixtures.route("payments/createPaymentSession"): OutboundResult(kind: .notSent, reason: "refused")
        ])
        #expect(
            try await AntomProvider(host: down).authorize(Fixtures.authorizeRequest(), account: Fixtures.account())
                .kind == .notSent)
        let empty = Self.sessionHost("{\(Fixtures.result())}")
        let noData = try await AntomProvider(host: empty).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(noData.kind == .unknown && noData.code == "unparsable_response")
    }

    @Test func cardWithoutAStoredCardIsRefusedWithoutSending() async {
        let host = FakeHost()
        await #expect(throws: ProviderError.self) {
            try await AntomProvider(host: host).authorize(
                Fixtures.authorizeRequest(method: "card"), account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }
}
