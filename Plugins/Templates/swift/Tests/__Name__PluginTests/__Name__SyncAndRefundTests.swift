import Foundation
import ProviderKit
import Testing

@testable import __Name__Plugin

@Suite struct __Name__SyncAndRefundTests {
    @Test func syncByTheProvidersId() async throws {
        let host = FakeHost(routes: [
            "GET /v1/payments/pay_123": Fixtures.payment("succeeded", extra: #","amount_refunded":250"#)
        ])
        let outcome = try await __Name__Provider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(outcome.kind == .succeeded)
        #expect(outcome.refundedAmount == 250)
        #expect(host.requests.first?.headers.contains { $0.name == "Idempotency-Key" } == false)
    }

    @Test func syncByOurReferenceThatFindsNothingIsJudgedByTheDelay() async throws {
        let host = FakeHost(routes: [
            "GET /v1/payments/att_1": Fixtures.error(code: "not_found", message: "no such payment", status: 404)
        ])
        let provider = __Name__Provider(host: host)
        let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: nil)
        let early = try await provider.sync(
            SyncRequest(payment: locator, attemptStartedAt: Fixtures.now.addingTimeInterval(-5)),
            account: Fixtures.account())
        #expect(early.kind == .unknown)
        let late = try await provider.sync(
            SyncRequest(payment: locator, attemptStartedAt: Fixtures.now.addingTimeInterval(-600)),
            account: Fixtures.account())
        #expect(late.kind == .notSent)
        #expect(late.provesNotReceived)
    }

    @Test func refusedLookupNeverDeclines() async throws {
        let host = FakeHost(routes: [
            "GET /v1/payments/pay_123": Fixtures.error(code: "forbidden", message: "no", status: 403)
        ])
        let outcome = try await __Name__Provider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(outcome.kind == .unknown)
    }

    @Test func refundRequestAndOutcome() async throws {
        let host = FakeHost(routes: [
            "POST /v1/payments/pay_123/refunds": Fixtures.json(
                #"{"id":"re_9","status":"succeeded","reference":"ref_1","amount":500}"#, status: 201)
        ])
        let request = RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 500, currency: "USD")
        let outcome = try await __Name__Provider(host: host).refund(request, account: Fixtures.account())
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == "re_9")
        #expect(outcome.amount == 500)
        let sent = try #require(host.requests.first)
        #expect(sent.headers.contains(HTTPHeader("Idempotency-Key", "ref_1")))
        let body = try JSONDecoder().decode(JSONValue.self, from: try #require(sent.body))
        #expect(body == .object(["amount": .integer(500), "reference": .string("ref_1")]))
    }

    @Test func failedRefundIsDeclinedAndAServerErrorUnknown() async throws {
        let route = "POST /v1/payments/pay_123/refunds"
        let host = FakeHost()
        host.queue(
            route,
            [
                Fixtures.json(#"{"id":"re_9","status":"failed","failure_code":"insufficient_balance"}"#),
                Fixtures.json("", status: 500),
            ])
        let provider = __Name__Provider(host: host)
        let request = RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 500, currency: "USD")
        let failed = try await provider.refund(request, account: Fixtures.account())
        #expect(failed.kind == .declined)
        #expect(failed.code == "insufficient_balance")
        #expect(try await provider.refund(request, account: Fixtures.account()).kind == .unknown)
    }

    @Test func refundWithoutThePaymentsIdSendsNothing() async throws {
        let host = FakeHost()
        let request = RefundRequest(
            payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil), refundId: "ref_1", amount: 500,
            currency: "USD")
        await #expect(throws: ProviderError.self) {
            try await __Name__Provider(host: host).refund(request, account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }
}
