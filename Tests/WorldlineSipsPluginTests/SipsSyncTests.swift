import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsSyncTests {
    static let route = Fixtures.route("diagnostic/getTransactionData")

    static func sync(_ answer: OutboundResult, payment: PaymentLocator = Fixtures.locator) async throws
        -> (Outcome, FakeHost)
    {
        let host = FakeHost(routes: [route: answer])
        let outcome = try await WorldlineSipsProvider(host: host).sync(
            SyncRequest(payment: payment), account: Fixtures.account())
        return (outcome, host)
    }

    @Test func inquiresByTheTransactionReference() async throws {
        let (outcome, host) = try await Self.sync(Fixtures.transactionAnswer("CAPTURED"))
        var expected = Fixtures.common("DR_WS_2.9")
        expected["transactionReference"] = .string(Fixtures.reference)
        try Fixtures.expectSealedRequest(host.requests.first, expected)
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/diagnostic/getTransactionData")
        #expect(outcome.kind == .succeeded && outcome.capturedAmount == 1250 && outcome.refundedAmount == nil)
        #expect(outcome.providerPaymentId == Fixtures.reference && outcome.providerStatus == "CAPTURED")
    }

    @Test func withoutAProviderIdTheReferenceComesFromTheAttemptId() async throws {
        let (_, host) = try await Self.sync(
            Fixtures.transactionAnswer("CAPTURED"),
            payment: PaymentLocator(attemptId: Fixtures.attemptId, providerPaymentId: nil))
        #expect(try Fixtures.body(host.requests.first)["transactionReference"] == .string(Fixtures.reference))
    }

    struct StatusRow: Sendable, CustomStringConvertible {
        var status: String
        var origin: Int64
        var current: Int64
        var kind: Outcome.Kind
        var amount: Int64?
        var captured: Int64?
        var refunded: Int64?
        var code: String?
        var description: String { status }
    }

    static let statusRows: [StatusRow] = [
        StatusRow(status: "TO_VALIDATE", origin: 1250, current: 1000, kind: .authorized, amount: 1000),
        StatusRow(status: "TO_CAPTURE", origin: 1250, current: 1250, kind: .succeeded, amount: 1250, captured: 1250),
        StatusRow(
            status: "CAPTURED", origin: 1250, current: 1000, kind: .succeeded, amount: 1250, captured: 1250,
            refunded: 250),
        StatusRow(
            status: "CREDITED", origin: 1250, current: 0, kind: .succeeded, amount: 1250, captured: 1250,
            refunded: 1250),
        StatusRow(
            status: "CANCELLED", origin: 1250, current: 0, kind: .canceled, amount: 1250, code: "payment_cancelled"),
        StatusRow(status: "PENDING", origin: 1250, current: 1250, kind: .pending, amount: 1250),
        StatusRow(
            status: "EXPIRED", origin: 1250, current: 1250, kind: .unknown, amount: 1250, code: "unrecognised_status"),
    ]

    @Test(arguments: statusRows)
    func transactionStatusMapping(_ row: StatusRow) async throws {
        let (outcome, _) = try await Self.sync(
            Fixtures.transactionAnswer(row.status, origin: row.origin, current: row.current))
        #expect(outcome.kind == row.kind)
        #expect(outcome.amount == row.amount)
        #expect(outcome.capturedAmount == row.captured)
        #expect(outcome.refundedAmount == row.refunded)
        #expect(outcome.code == row.code)
        #expect(outcome.providerStatus == row.status)
        #expect(outcome.providerPaymentId == Fixtures.reference)
    }

    @Test func amountsWhoseDifferenceOverflowsAreNotReported() async throws {
        let (outcome, _) = try await Self.sync(
            Fixtures.transactionAnswer("CAPTURED", origin: Int64.max, current: -1))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.refundedAmount == nil)
    }

    @Test func refusedTransactionsCarryTheAcquirersCode() async throws {
        let (declined, _) = try await Self.sync(Fixtures.transactionAnswer("REFUSED", acquirer: "51"))
        #expect(declined.kind == .declined && declined.code == "51" && declined.retryable == false)
        let (soft, _) = try await Self.sync(Fixtures.transactionAnswer("REFUSED", acquirer: "A1"))
        #expect(soft.kind == .declined && soft.code == "A1" && soft.retryable == true)
        let (bare, _) = try await Self.sync(Fixtures.transactionAnswer("REFUSED", acquirer: "00"))
        #expect(bare.kind == .declined && bare.code == "REFUSED")
    }

    @Test func unknownTransactionIsPending() async throws {
        let (outcome, _) = try await Self.sync(Fixtures.transactionAnswer(nil, code: "25"))
        #expect(outcome.kind == .pending && outcome.code == "transaction_not_found")
        #expect(outcome.providerPaymentId == Fixtures.reference)
    }

    @Test func failedInquiries() async throws {
        let cases: [(OutboundResult, Outcome.Kind, String?)] = [
            (Fixtures.transactionAnswer(nil, code: "99"), .unknown, "99"),
            (Fixtures.transactionAnswer(nil, code: "90"), .notSent, "90"),
            (Fixtures.transactionAnswer(nil, code: "03"), .declined, "03"),
            (OutboundResult(kind: .notSent), .notSent, "not_sent"),
            (OutboundResult(kind: .noResponse), .unknown, "no_response"),
            (
                Fixtures.json(.object(["responseCode": .string("00"), "transactionStatus": .string("CAPTURED")])),
                .unknown, "unsealed_response"
            ),
        ]
        for (answer, kind, code) in cases {
            let (outcome, _) = try await Self.sync(answer)
            #expect(outcome.kind == kind && outcome.code == code, "\(code ?? "")")
            #expect(outcome.providerPaymentId == Fixtures.reference)
        }
    }

    @Test func tamperedAnswerIsNotTrusted() async throws {
        let good = Fixtures.transactionAnswer("CAPTURED")
        let text = String(decoding: try #require(good.body), as: UTF8.self)
        let forged = text.replacingOccurrences(of: "\"CAPTURED\"", with: "\"CANCELLED\"")
        #expect(forged != text)
        let (outcome, _) = try await Self.sync(
            OutboundResult(kind: .response, status: 200, body: Data(forged.utf8)))
        #expect(outcome.kind == .unknown && outcome.code == "bad_response_seal")
    }

    @Test func completeIsASyncAndIgnoresTheAppsClaims() async throws {
        let host = FakeHost(routes: [Self.route: Fixtures.transactionAnswer("REFUSED", acquirer: "05")])
        let request = CompleteRequest(
            payment: Fixtures.locator, operationId: "op_1", merchantReference: "order-42_A", amount: 1250,
            currency: "EUR", country: "FR", method: "card", captureMode: .automatic, returnURL: nil,
            paymentData: ["responseCode": .string("00"), "inAppResponseCode": .string("00")], session: [:])
        let outcome = try await WorldlineSipsProvider(host: host).complete(request, account: Fixtures.account())
        #expect(host.requests.count == 1)
        #expect(host.requests.first?.url.hasSuffix("diagnostic/getTransactionData") == true)
        #expect(outcome.kind == .declined && outcome.code == "05")
    }
}
