import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineCompleteTests {
    static let route = "POST /v2/MERCH1/payments"

    static func created(_ payment: String, action: String = "") -> OutboundResult {
        Fixtures.json(#"{"creationOutput":{},\#(action)"payment":\#(payment)}"#, status: 201)
    }

    @Test func sendsTheEncryptedInputAsASale() async throws {
        let host = FakeHost(routes: [Self.route: Self.created(Fixtures.payment(status: "CAPTURE_REQUESTED", code: 91))])
        let outcome = try await WorldlineDirectProvider(host: host).complete(
            Fixtures.completeRequest(), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(request.url == "http://127.0.0.1:9999/v2/MERCH1/payments")
        #expect(Fixtures.header("X-GCS-Idempotence-Key", of: request) == "op_complete_1")
        let body = try Fixtures.body(request)
        #expect(body["encryptedCustomerInput"] == .string("eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d"))
        #expect(body["order"]?["amountOfMoney"]?["amount"]?.integerValue == 1250)
        #expect(body["order"]?["amountOfMoney"]?["currencyCode"] == .string("EUR"))
        #expect(body["order"]?["references"]?["merchantReference"] == .string("order-42"))
        #expect(
            body["feedbacks"]?["webhooksUrls"]
                == .array([.string("https://switchyard.test/notifications/acct_wl_1")]))
        let card = try #require(body["cardPaymentMethodSpecificInput"])
        #expect(card["authorizationMode"] == .string("SALE"))
        #expect(card["returnUrl"] == .string("https://shop.test/back"))
        #expect(card["threeDSecure"]?["redirectionData"]?["returnUrl"] == .string("https://shop.test/back"))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.providerStatus == "CAPTURE_REQUESTED")
        #expect(outcome.amount == 1250)
    }

    @Test func manualCaptureAsksForAFinalAuthorization() async throws {
        let host = FakeHost(routes: [Self.route: Self.created(Fixtures.payment(status: "PENDING_CAPTURE", code: 5))])
        let outcome = try await WorldlineDirectProvider(host: host).complete(
            Fixtures.completeRequest(capture: .manual), account: Fixtures.account())
        let body = try Fixtures.body(host.requests.first)
        #expect(body["cardPaymentMethodSpecificInput"]?["authorizationMode"] == .string("FINAL_AUTHORIZATION"))
        #expect(outcome.kind == .authorized && outcome.providerPaymentId == Fixtures.paymentId)
    }

    @Test func redirectActionBecomesARedirectNextAction() async throws {
        let action =
            #""merchantAction":{"actionType":"REDIRECT","#
            + #""redirectData":{"redirectURL":"https://acs.test/3ds?x=1","RETURNMAC":"mac"}},"#
        let host = FakeHost(routes: [
            Self.route: Self.created(Fixtures.payment(status: "REDIRECTED", code: 46), action: action)
        ])
        let outcome = try await WorldlineDirectProvider(host: host).complete(
            Fixtures.completeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .pending)
        #expect(outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.nextAction == NextAction(type: "redirect", data: ["url": .string("https://acs.test/3ds?x=1")]))
    }

    @Test func declinedPaymentBodyIsADecline() async throws {
        let extra = #","paymentResult":{"payment":\#(Fixtures.payment(status: "REJECTED", code: 2, extra: ""))}"#
        let host = FakeHost(routes: [
            Self.route: Fixtures.json(Fixtures.error(code: "30511001", extra: extra), status: 402)
        ])
        let outcome = try await WorldlineDirectProvider(host: host).complete(
            Fixtures.completeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .declined)
        #expect(outcome.code == "30511001")
        #expect(outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.retryable == false)
    }

    @Test func expiredSessionIsRefusedWithoutARequest() async throws {
        let host = FakeHost(routes: [Self.route: Self.created(Fixtures.payment(status: "CAPTURED", code: 9))])
        let provider = WorldlineDirectProvider(host: host)
        for expiry: Int64 in [1_762_600_000, 1_762_599_999, 0] {
            await #expect(
                throws: ProviderError(code: "session_expired", message: "the Worldline client session has expired")
            ) {
                try await provider.complete(Fixtures.completeRequest(expiresAt: expiry), account: Fixtures.account())
            }
        }
        #expect(host.requests.isEmpty)
        _ = try await provider.complete(Fixtures.completeRequest(expiresAt: 1_762_600_001), account: Fixtures.account())
        #expect(host.requests.count == 1)
    }

    @Test func missingEncryptedInputIsABadRequest() async throws {
        let host = FakeHost()
        for input in [nil, ""] as [String?] {
            await #expect(throws: ProviderError(code: "bad_request", message: "encrypted_customer_input is missing")) {
                try await WorldlineDirectProvider(host: host).complete(
                    Fixtures.completeRequest(input: input), account: Fixtures.account())
            }
        }
        #expect(host.requests.isEmpty)
    }

    @Test func inProgressReplayIsUnknown() async throws {
        let host = FakeHost(routes: [
            Self.route: Fixtures.json(Fixtures.error(code: "30001002", http: 409), status: 409)
        ])
        let outcome = try await WorldlineDirectProvider(host: host).complete(
            Fixtures.completeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "in_progress")
    }
}
