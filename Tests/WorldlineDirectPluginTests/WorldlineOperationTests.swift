import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineOperationTests {
    static let base = "/v2/MERCH1/payments/3066019730_0"

    @Test func captureSendsAmountAndFinality() async throws {
        let answer =
            #"{"id":"3066019730_0-c1","status":"CAPTURE_REQUESTED","statusOutput":{"statusCode":91},"#
            + #""captureOutput":{"amountOfMoney":{"amount":1000,"currencyCode":"EUR"}}}"#
        let host = FakeHost(routes: ["POST \(Self.base)/capture": Fixtures.json(answer, status: 201)])
        let outcome = try await WorldlineDirectProvider(host: host).capture(
            CaptureRequest(
                payment: Fixtures.locator, operationId: "op_cap_1", amount: 1000, currency: "EUR", isFinal: true),
            account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(Fixtures.header("X-GCS-Idempotence-Key", of: request) == "op_cap_1")
        let body = try Fixtures.body(request)
        #expect(body == .object(["amount": .integer(1000), "isFinal": .bool(true)]))
        #expect(outcome.kind == .succeeded && outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.amount == 1000 && outcome.capturedAmount == 1000)
    }

    @Test func voidCancelsAndACancelledPaymentIsSuccess() async throws {
        let answer = #"{"payment":\#(Fixtures.payment(status: "CANCELLED", code: 6))}"#
        let host = FakeHost(routes: ["POST \(Self.base)/cancel": Fixtures.json(answer)])
        let outcome = try await WorldlineDirectProvider(host: host).void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void_1"), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(request.body == Data("{}".utf8))
        #expect(Fixtures.header("X-GCS-Idempotence-Key", of: request) == "op_void_1")
        #expect(outcome.kind == .succeeded && outcome.providerStatus == "CANCELLED" && outcome.code == nil)
    }

    @Test func voidOfACapturedPaymentIsDeclinedByWorldline() async throws {
        let host = FakeHost(routes: [
            "POST \(Self.base)/cancel": Fixtures.json(Fixtures.error(code: "40001134"), status: 400)
        ])
        let outcome = try await WorldlineDirectProvider(host: host).void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void_1"), account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "40001134")
        #expect(outcome.providerPaymentId == Fixtures.paymentId)
    }

    @Test func refundSendsAmountOfMoneyAndReturnsTheRefundId() async throws {
        let answer =
            #"{"id":"3066019730_0-r1","status":"REFUND_REQUESTED","statusOutput":{"statusCode":81},"#
            + #""refundOutput":{"amountOfMoney":{"amount":500,"currencyCode":"EUR"}}}"#
        let host = FakeHost(routes: ["POST \(Self.base)/refund": Fixtures.json(answer, status: 201)])
        let outcome = try await WorldlineDirectProvider(host: host).refund(
            RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 500, currency: "EUR"),
            account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(Fixtures.header("X-GCS-Idempotence-Key", of: request) == "ref_1")
        let body = try Fixtures.body(request)
        #expect(body == .object(["amountOfMoney": .object(["amount": .integer(500), "currencyCode": .string("EUR")])]))
        #expect(outcome.kind == .succeeded && outcome.providerPaymentId == "3066019730_0-r1")
        #expect(outcome.refundedAmount == 500)
    }

    @Test func refusedRefundUsesRefundResult() async throws {
        let refund = #"{"id":"r9","status":"REJECTED","statusOutput":{"statusCode":83}}"#
        let host = FakeHost(routes: [
            "POST \(Self.base)/refund": Fixtures.json(
                Fixtures.error(code: "30041001", extra: #","refundResult":\#(refund)"#), status: 402)
        ])
        let outcome = try await WorldlineDirectProvider(host: host).refund(
            RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 500, currency: "EUR"),
            account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "30041001" && outcome.providerPaymentId == "r9")
    }

    @Test func operationsNeedWorldlinesPaymentId() async {
        let host = FakeHost()
        let provider = WorldlineDirectProvider(host: host)
        let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: nil)
        await #expect(throws: ProviderError.self) {
            try await provider.capture(
                CaptureRequest(payment: locator, operationId: "o", amount: 1, currency: "EUR", isFinal: true),
                account: Fixtures.account())
        }
        await #expect(throws: ProviderError.self) {
            try await provider.void(VoidRequest(payment: locator, operationId: "o"), account: Fixtures.account())
        }
        await #expect(throws: ProviderError.self) {
            try await provider.refund(
                RefundRequest(payment: locator, refundId: "r", amount: 1, currency: "EUR"), account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }

    @Test func syncGetsThePaymentById() async throws {
        let host = FakeHost(routes: [
            "GET \(Self.base)": Fixtures.json(Fixtures.payment(status: "PENDING_CAPTURE", code: 5))
        ])
        let outcome = try await WorldlineDirectProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        let request = try #require(host.requests.first)
        #expect(request.method == "GET" && request.body == nil)
        #expect(Fixtures.header("Content-Type", of: request) == nil)
        #expect(Fixtures.header("X-GCS-Idempotence-Key", of: request) == nil)
        #expect(Fixtures.header("Authorization", of: request)?.hasPrefix("GCS v1HMAC:KEYID123:") == true)
        #expect(
            outcome.kind == .authorized && outcome.providerPaymentId == Fixtures.paymentId && outcome.amount == 1250)
    }

    @Test func syncWithoutPaymentIdIsUnknownWithoutARequest() async throws {
        let host = FakeHost()
        let outcome = try await WorldlineDirectProvider(host: host).sync(
            SyncRequest(payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil)),
            account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "no_payment_id")
        #expect(host.requests.isEmpty)
    }

    @Test func syncNotFoundIsUnknown() async throws {
        let host = FakeHost(routes: [
            "GET \(Self.base)": Fixtures.json(Fixtures.error(code: "410110", http: 404), status: 404)
        ])
        let outcome = try await WorldlineDirectProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(
            outcome.kind == .unknown && outcome.code == "not_found" && outcome.providerPaymentId == Fixtures.paymentId)
    }
}
