import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomSyncTests {
    static func inquiry(_ status: String, extra: String = "") -> String {
        #"{\#(Fixtures.result()),"paymentStatus":"\#(status)","paymentId":"\#(Fixtures.paymentId)","#
            + #""paymentRequestId":"att_1","paymentAmount":{"currency":"USD","value":"1000"}\#(extra)}"#
    }

    static func sync(_ answer: String, payment: PaymentLocator = Fixtures.locator) async throws -> (Outcome, FakeHost) {
        let host = FakeHost(routes: [
            Fixtures.route("payments/inquiryPayment"): Fixtures.signed("payments/inquiryPayment", answer)
        ])
        let outcome = try await AntomProvider(host: host).sync(
            SyncRequest(payment: payment), account: Fixtures.account())
        return (outcome, host)
    }

    static let statuses: [(String, Outcome.Kind)] = [
        ("SUCCESS", .succeeded), ("PENDING", .authorized), ("PROCESSING", .pending), ("FAIL", .declined),
        ("CANCELLED", .canceled), ("success", .succeeded), ("SOMETHING_NEW", .unknown),
    ]

    @Test(arguments: statuses) func paymentStatusTable(status: String, kind: Outcome.Kind) {
        #expect(AntomMapping.paymentStatusKind(status) == kind)
    }

    @Test func refundStatusTable() {
        #expect(AntomMapping.refundStatusKind("SUCCESS") == .succeeded)
        #expect(AntomMapping.refundStatusKind("PROCESSING") == .pending)
        #expect(AntomMapping.refundStatusKind("FAIL") == .declined)
        #expect(AntomMapping.refundStatusKind(nil) == .unknown)
    }

    @Test func inquiresByOurReferenceAndAntomsId() async throws {
        let (outcome, host) = try await Self.sync(Self.inquiry("SUCCESS"))
        #expect(
            try Fixtures.body(host.requests.first)
                == .object(["paymentRequestId": .string("att_1"), "paymentId": .string(Fixtures.paymentId)]))
        #expect(outcome.kind == .succeeded && outcome.providerPaymentId == Fixtures.paymentId)
        // A wallet payment without capture transactions is captured in full.
        #expect(outcome.amount == 1000 && outcome.capturedAmount == 1000 && outcome.refundedAmount == nil)
        #expect(outcome.providerStatus == "SUCCESS")
    }

    @Test func inquiresByOurReferenceAloneWhenAntomsIdIsUnknown() async throws {
        let (outcome, host) = try await Self.sync(
            Self.inquiry("PROCESSING"), payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil))
        #expect(try Fixtures.body(host.requests.first) == .object(["paymentRequestId": .string("att_1")]))
        #expect(outcome.kind == .pending && outcome.providerPaymentId == Fixtures.paymentId)
    }

    @Test func amountsComeFromSuccessfulTransactions() async throws {
        let transactions =
            #","transactions":[{"transactionType":"CAPTURE","transactionStatus":"SUCCESS","#
            + #""transactionAmount":{"currency":"USD","value":"600"}},{"transactionType":"CAPTURE","#
            + #""transactionStatus":"FAIL","transactionAmount":{"currency":"USD","value":"400"}},"#
            + #"{"transactionType":"REFUND","transactionStatus":"SUCCESS","#
            + #""transactionAmount":{"currency":"USD","value":"100"}},"#
            + #"{"transactionType":"REFUND","transactionStatus":"SUCCESS","#
            + #""transactionAmount":{"currency":"USD","value":50}},"#
            + #"{"transactionType":"REFUND","transactionStatus":"PROCESSING","#
            + #""transactionAmount":{"currency":"USD","value":"25"}}]"#
        let (outcome, _) = try await Self.sync(Self.inquiry("SUCCESS", extra: transactions))
        #expect(outcome.capturedAmount == 600 && outcome.refundedAmount == 150)
    }

    @Test func amountsThatOverflowWhenAddedAreDropped() async throws {
        func transaction(_ type: String, _ value: String) -> String {
            #"{"transactionType":"\#(type)","transactionStatus":"SUCCESS","#
                + #""transactionAmount":{"currency":"USD","value":"\#(value)"}}"#
        }
        let huge = String(Int64.max)
        let transactions =
            #","transactions":["#
            + [
                transaction("CAPTURE", huge), transaction("CAPTURE", "1"), transaction("REFUND", huge),
                transaction("REFUND", huge),
            ].joined(separator: ",") + "]"
        let (outcome, _) = try await Self.sync(Self.inquiry("SUCCESS", extra: transactions))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.capturedAmount == nil && outcome.refundedAmount == nil)
    }

    @Test func authorisedCardIsNotCaptured() async throws {
        let (outcome, _) = try await Self.sync(Self.inquiry("PENDING"))
        #expect(outcome.kind == .authorized && outcome.capturedAmount == nil)
    }

    @Test func failedPaymentCarriesItsResultCode() async throws {
        let (outcome, _) = try await Self.sync(
            Self.inquiry("FAIL", extra: #","paymentResultCode":"USER_BALANCE_NOT_ENOUGH","paymentResultMessage":"x""#))
        #expect(outcome.kind == .declined && outcome.code == "USER_BALANCE_NOT_ENOUGH" && outcome.retryable == false)
    }

    @Test func cancelledAndUnrecognisedStatuses() async throws {
        let (cancelled, _) = try await Self.sync(Self.inquiry("CANCELLED"))
        #expect(cancelled.kind == .canceled)
        let (odd, _) = try await Self.sync(Self.inquiry("ON_HOLD"))
        #expect(odd.kind == .unknown && odd.code == "unrecognised_status")
    }

    @Test func unknownOrderIsDeclinedWithAntomsCode() async throws {
        let (outcome, _) = try await Self.sync("{\(Fixtures.result("F", "ORDER_NOT_EXIST"))}")
        #expect(outcome.kind == .declined && outcome.code == "ORDER_NOT_EXIST")
        #expect(outcome.providerPaymentId == Fixtures.paymentId)
    }

    @Test func inquiryFailuresKeepTheOutcomeUnknown() async throws {
        let (busy, _) = try await Self.sync("{\(Fixtures.result("U", "UNKNOWN_EXCEPTION"))}")
        #expect(busy.kind == .unknown)
        let timeout = FakeHost(routes: [
            Fixtures.route("payments/inquiryPayment"): OutboundResult(kind: .noResponse, reason: "timeout")
        ])
        let outcome = try await AntomProvider(host: timeout).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "no_response")
        let unsigned = FakeHost(routes: [
            Fixtures.route("payments/inquiryPayment"): Fixtures.unsigned(Self.inquiry("SUCCESS"))
        ])
        let rejected = try await AntomProvider(host: unsigned).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(rejected.kind == .unknown && rejected.code == "bad_response_signature")
    }
}
