import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomOperationTests {
    static func host(_ call: String, _ answer: String) -> FakeHost {
        FakeHost(routes: [Fixtures.route(call): Fixtures.signed(call, answer)])
    }

    @Test func captureSendsOurIdAmountAndFinality() async throws {
        let answer =
            #"{\#(Fixtures.result()),"captureRequestId":"op_cap_1","captureId":"c1","#
            + #""paymentId":"\#(Fixtures.paymentId)","captureAmount":{"currency":"USD","value":"600"}}"#
        let host = Self.host("payments/capture", answer)
        let outcome = try await AntomProvider(host: host).capture(
            CaptureRequest(
                payment: Fixtures.locator, operationId: "op_cap_1", amount: 600, currency: "USD", isFinal: true),
            account: Fixtures.account())
        let body = try Fixtures.body(host.requests.first)
        #expect(
            body
                == .object([
                    "captureRequestId": .string("op_cap_1"), "paymentId": .string(Fixtures.paymentId),
                    "captureAmount": .object(["currency": .string("USD"), "value": .string("600")]),
                    "isLastCapture": .bool(true),
                ]))
        #expect(outcome.kind == .succeeded && outcome.providerPaymentId == Fixtures.paymentId)
        #expect(outcome.amount == 600 && outcome.capturedAmount == 600)
    }

    @Test func captureWithoutAPaymentIdIsUnknownAndSendsNothing() async throws {
        let host = FakeHost()
        let outcome = try await AntomProvider(host: host).capture(
            CaptureRequest(
                payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil), operationId: "op", amount: 1,
                currency: "USD", isFinal: false),
            account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "no_payment_id")
        #expect(host.requests.isEmpty)
    }

    @Test func captureRefusalNamesThePayment() async throws {
        let host = Self.host("payments/capture", "{\(Fixtures.result("F", "ORDER_IS_CLOSED"))}")
        let outcome = try await AntomProvider(host: host).capture(
            CaptureRequest(payment: Fixtures.locator, operationId: "op", amount: 1, currency: "USD", isFinal: false),
            account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.providerPaymentId == Fixtures.paymentId)
        #expect(try Fixtures.body(host.requests.first)["isLastCapture"] == .bool(false))
    }

    @Test func voidCancelsByPaymentIdOrByOurReference() async throws {
        let answer = #"{\#(Fixtures.result()),"paymentId":"\#(Fixtures.paymentId)","paymentRequestId":"att_1"}"#
        let byId = Self.host("payments/cancel", answer)
        let outcome = try await AntomProvider(host: byId).void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void"), account: Fixtures.account())
        #expect(try Fixtures.body(byId.requests.first) == .object(["paymentId": .string(Fixtures.paymentId)]))
        #expect(outcome.kind == .canceled && outcome.providerPaymentId == Fixtures.paymentId && outcome.code == nil)

        let byReference = Self.host("payments/cancel", answer)
        _ = try await AntomProvider(host: byReference).void(
            VoidRequest(payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil), operationId: "op_void"),
            account: Fixtures.account())
        #expect(try Fixtures.body(byReference.requests.first) == .object(["paymentRequestId": .string("att_1")]))
    }

    @Test func voidTooLateIsDeclined() async throws {
        let host = Self.host("payments/cancel", "{\(Fixtures.result("F", "CANCEL_WINDOW_EXCEED"))}")
        let outcome = try await AntomProvider(host: host).void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void"), account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "CANCEL_WINDOW_EXCEED")
    }

    @Test func refundSendsOurRefundIdAndReturnsAntomsRefundId() async throws {
        let answer =
            #"{\#(Fixtures.result()),"refundRequestId":"ref_1","refundId":"rf_9","#
            + #""paymentId":"\#(Fixtures.paymentId)","refundAmount":{"currency":"USD","value":"400"}}"#
        let host = Self.host("payments/refund", answer)
        let outcome = try await AntomProvider(host: host).refund(
            RefundRequest(
                payment: Fixtures.locator, refundId: "ref_1", amount: 400, currency: "USD", reason: "damaged"),
            account: Fixtures.account())
        #expect(
            try Fixtures.body(host.requests.first)
                == .object([
                    "refundRequestId": .string("ref_1"), "paymentId": .string(Fixtures.paymentId),
                    "refundAmount": .object(["currency": .string("USD"), "value": .string("400")]),
                    "refundReason": .string("damaged"),
                ]))
        #expect(outcome.kind == .succeeded && outcome.providerPaymentId == "rf_9")
        #expect(outcome.amount == 400 && outcome.refundedAmount == 400)
    }

    @Test func refundRefusalsAreDeclined() async throws {
        let host = Self.host("payments/refund", "{\(Fixtures.result("F", "REFUND_AMOUNT_EXCEED"))}")
        let outcome = try await AntomProvider(host: host).refund(
            RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 99_999, currency: "USD"),
            account: Fixtures.account())
        #expect(outcome.kind == .declined && outcome.code == "REFUND_AMOUNT_EXCEED" && outcome.retryable == false)
        let none = FakeHost()
        let notSent = try await AntomProvider(host: none).refund(
            RefundRequest(
                payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil), refundId: "r", amount: 1,
                currency: "USD"),
            account: Fixtures.account())
        #expect(notSent.kind == .notSent && notSent.code == "no_payment_id" && none.requests.isEmpty)
    }

    @Test func syncRefundInquiresByOurRefundId() async throws {
        let answer =
            #"{\#(Fixtures.result()),"refundStatus":"SUCCESS","refundId":"rf_9","refundRequestId":"ref_1","#
            + #""refundAmount":{"currency":"USD","value":"400"}}"#
        let host = Self.host("payments/inquiryRefund", answer)
        let outcome = try await AntomProvider(host: host).syncRefund(
            SyncRefundRequest(payment: Fixtures.locator, refundId: "ref_1", providerRefundId: nil),
            account: Fixtures.account())
        #expect(try Fixtures.body(host.requests.first) == .object(["refundRequestId": .string("ref_1")]))
        #expect(outcome.kind == .succeeded && outcome.providerPaymentId == "rf_9" && outcome.refundedAmount == 400)

        for (status, kind) in [("PROCESSING", Outcome.Kind.pending), ("FAIL", .declined), ("ODD", .unknown)] {
            let other = Self.host("payments/inquiryRefund", #"{\#(Fixtures.result()),"refundStatus":"\#(status)"}"#)
            let result = try await AntomProvider(host: other).syncRefund(
                SyncRefundRequest(payment: Fixtures.locator, refundId: "ref_1", providerRefundId: "rf_9"),
                account: Fixtures.account())
            #expect(result.kind == kind && result.providerPaymentId == "rf_9", "\(status)")
        }
    }
}
