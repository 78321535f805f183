import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsOperationTests {
    static let validate = Fixtures.route("cashManagement/validate")
    static let cancel = Fixtures.route("cashManagement/cancel")
    static let refund = Fixtures.route("cashManagement/refund")
    static let inquiry = Fixtures.route("diagnostic/getTransactionData")

    static func cashFields(amount: Int64, currency: String = "978") -> [String: JSONValue] {
        var fields = Fixtures.common("CR_WS_2.27")
        fields["operationAmount"] = .integer(amount)
        fields["currencyCode"] = .string(currency)
        fields["operationOrigin"] = .string("SWITCHYARD")
        fields["transactionReference"] = .string(Fixtures.reference)
        return fields
    }

    static func capture(_ answer: OutboundResult, amount: Int64 = 1000) async throws -> (Outcome, FakeHost) {
        let host = FakeHost(routes: [validate: answer])
        let outcome = try await WorldlineSipsProvider(host: host).capture(
            CaptureRequest(
                payment: Fixtures.locator, operationId: "op_cap", amount: amount, currency: "EUR", isFinal: true),
            account: Fixtures.account())
        return (outcome, host)
    }

    @Test func captureValidatesTheAmount() async throws {
        let (outcome, host) = try await Self.capture(Fixtures.cashAnswer("00", newStatus: "CAPTURED", newAmount: 1000))
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/cashManagement/validate")
        try Fixtures.expectSealedRequest(host.requests.first, Self.cashFields(amount: 1000))
        #expect(outcome.kind == .succeeded && outcome.amount == 1000 && outcome.capturedAmount == 1000)
        #expect(outcome.providerPaymentId == Fixtures.reference && outcome.providerStatus == "CAPTURED")
    }

    @Test func captureFailures() async throws {
        let cases: [(OutboundResult, Outcome.Kind, String)] = [
            (Fixtures.cashAnswer("99"), .unknown, "99"),
            (Fixtures.cashAnswer("24"), .declined, "24"),
            (Fixtures.cashAnswer("30", errorField: "operationAmount"), .declined, "30"),
            (Fixtures.cashAnswer("25"), .declined, "25"),
            (Fixtures.cashAnswer("90"), .notSent, "90"),
            (Fixtures.cashAnswer("94"), .unknown, "duplicate_transaction"),
            (Fixtures.cashAnswer("05", acquirer: "68"), .unknown, "68"),
            (OutboundResult(kind: .notSent, reason: "refused"), .notSent, "not_sent"),
            (OutboundResult(kind: .noResponse, reason: "timeout"), .unknown, "no_response"),
            (OutboundResult(kind: .response, status: 502, body: Data()), .unknown, "http_502"),
        ]
        for (answer, kind, code) in cases {
            let (outcome, _) = try await Self.capture(answer)
            #expect(outcome.kind == kind && outcome.code == code, "\(code)")
            #expect(outcome.providerPaymentId == Fixtures.reference)
            #expect(outcome.capturedAmount == nil)
        }
    }

    @Test func captureWithAnUnsupportedCurrencySendsNothing() async {
        let host = FakeHost()
        await #expect(throws: ProviderError.self) {
            try await WorldlineSipsProvider(host: host).capture(
                CaptureRequest(payment: Fixtures.locator, operationId: "c", amount: 1, currency: "XXX", isFinal: true),
                account: Fixtures.account(options: ["interface_version_cash": "CR_WS_2.3"]))
        }
        #expect(host.requests.isEmpty)
    }

    @Test func cashInterfaceVersionComesFromTheAccount() async throws {
        let host = FakeHost(routes: [Self.validate: Fixtures.cashAnswer()])
        _ = try await WorldlineSipsProvider(host: host).capture(
            CaptureRequest(payment: Fixtures.locator, operationId: "c", amount: 5, currency: "JPY", isFinal: true),
            account: Fixtures.account(options: ["interface_version_cash": "CR_WS_2.3"]))
        let body = try Fixtures.body(host.requests.first)
        #expect(body["interfaceVersion"] == .string("CR_WS_2.3") && body["currencyCode"] == .string("392"))
    }

    // MARK: Void

    @Test func voidCancelsWhatRemains() async throws {
        let host = FakeHost(routes: [
            Self.inquiry: Fixtures.transactionAnswer("TO_VALIDATE", origin: 1250, current: 900),
            Self.cancel: Fixtures.cashAnswer("00", newStatus: "CANCELLED", newAmount: 0),
        ])
        let outcome = try await WorldlineSipsProvider(host: host).void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void"), account: Fixtures.account())
        #expect(host.requests.count == 2)
        #expect(host.requests.first?.url.hasSuffix("/diagnostic/getTransactionData") == true)
        #expect(host.requests.last?.url == Fixtures.baseURL + "/rs-services/v2/cashManagement/cancel")
        try Fixtures.expectSealedRequest(host.requests.last, Self.cashFields(amount: 900))
        #expect(outcome.kind == .canceled && outcome.amount == 900 && outcome.providerStatus == "CANCELLED")
        #expect(outcome.providerPaymentId == Fixtures.reference)
    }

    @Test func voidOfACancelledTransactionSendsNoCancel() async throws {
        let host = FakeHost(routes: [Self.inquiry: Fixtures.transactionAnswer("CANCELLED", current: 0)])
        let outcome = try await WorldlineSipsProvider(host: host).void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void"), account: Fixtures.account())
        #expect(host.requests.count == 1)
        #expect(outcome.kind == .canceled)
    }

    @Test func voidFailures() async throws {
        let cases: [([String: OutboundResult], Outcome.Kind, String, Int)] = [
            ([Self.inquiry: Fixtures.transactionAnswer(nil, code: "25")], .declined, "25", 1),
            ([Self.inquiry: OutboundResult(kind: .notSent)], .notSent, "not_sent", 1),
            ([Self.inquiry: Fixtures.transactionAnswer(nil, code: "99")], .unknown, "99", 1),
            (
                [Self.inquiry: Fixtures.transactionAnswer("CAPTURED"), Self.cancel: Fixtures.cashAnswer("24")],
                .declined, "24", 2
            ),
            (
                [Self.inquiry: Fixtures.transactionAnswer("TO_CAPTURE"), Self.cancel: Fixtures.cashAnswer("99")],
                .unknown, "99", 2
            ),
            (
                [
                    Self.inquiry: Fixtures.sealed([
                        "responseCode": .string("00"), "transactionStatus": .string("TO_CAPTURE"),
                    ])
                ],
                .unknown, "unparsable_response", 1
            ),
        ]
        for (routes, kind, code, calls) in cases {
            let host = FakeHost(routes: routes)
            let outcome = try await WorldlineSipsProvider(host: host).void(
                VoidRequest(payment: Fixtures.locator, operationId: "op_void"), account: Fixtures.account())
            #expect(outcome.kind == kind && outcome.code == code, "\(code)")
            #expect(host.requests.count == calls, "\(code)")
        }
    }

    // MARK: Refund

    @Test func refundSendsTheAmount() async throws {
        let host = FakeHost(routes: [Self.refund: Fixtures.cashAnswer("00", newStatus: "CAPTURED", newAmount: 850)])
        let outcome = try await WorldlineSipsProvider(host: host).refund(
            RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 400, currency: "GBP", reason: "x"),
            account: Fixtures.account())
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/cashManagement/refund")
        try Fixtures.expectSealedRequest(host.requests.first, Self.cashFields(amount: 400, currency: "826"))
        #expect(outcome.kind == .succeeded && outcome.amount == 400 && outcome.refundedAmount == 400)
        #expect(outcome.providerPaymentId == Fixtures.reference && outcome.providerStatus == "CAPTURED")
    }

    @Test func refundFailures() async throws {
        let cases: [(OutboundResult, Outcome.Kind, String)] = [
            (Fixtures.cashAnswer("30", errorField: "operationAmount"), .declined, "30"),
            (Fixtures.cashAnswer("24"), .declined, "24"),
            (Fixtures.cashAnswer("99"), .unknown, "99"),
            (Fixtures.cashAnswer("90"), .notSent, "90"),
        ]
        for (answer, kind, code) in cases {
            let host = FakeHost(routes: [Self.refund: answer])
            let outcome = try await WorldlineSipsProvider(host: host).refund(
                RefundRequest(payment: Fixtures.locator, refundId: "ref_1", amount: 400, currency: "EUR"),
                account: Fixtures.account())
            #expect(outcome.kind == kind && outcome.code == code, "\(code)")
        }
    }
}
