import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsClassificationTests {
    struct Row: Sendable, CustomStringConvertible {
        var code: String?
        var acquirer: String?
        var movesMoney: Bool
        var kind: Outcome.Kind
        var outcomeCode: String?
        var retryable: Bool?

        var description: String { "\(code ?? "nil")/\(acquirer ?? "nil")/\(movesMoney)" }
    }

    static let rows: [Row] = [
        Row(code: "90", acquirer: nil, movesMoney: true, kind: .notSent, outcomeCode: "90"),
        Row(code: "90", acquirer: nil, movesMoney: false, kind: .notSent, outcomeCode: "90"),
        Row(code: "99", acquirer: nil, movesMoney: false, kind: .unknown, outcomeCode: "99"),
        Row(code: "99", acquirer: nil, movesMoney: true, kind: .unknown, outcomeCode: "99"),
        Row(code: "60", acquirer: nil, movesMoney: true, kind: .unknown, outcomeCode: "60"),
        Row(code: "05", acquirer: "62", movesMoney: true, kind: .unknown, outcomeCode: "62"),
        Row(code: "05", acquirer: "68", movesMoney: false, kind: .unknown, outcomeCode: "68"),
        Row(code: "05", acquirer: "97", movesMoney: true, kind: .unknown, outcomeCode: "97"),
        Row(code: "05", acquirer: "91", movesMoney: false, kind: .notSent, outcomeCode: "91"),
        Row(code: "05", acquirer: "96", movesMoney: false, kind: .notSent, outcomeCode: "96"),
        Row(code: "05", acquirer: "98", movesMoney: false, kind: .notSent, outcomeCode: "98"),
        Row(code: "05", acquirer: "90", movesMoney: true, kind: .declined, outcomeCode: "90", retryable: true),
        Row(code: "05", acquirer: "A1", movesMoney: true, kind: .declined, outcomeCode: "A1", retryable: true),
        Row(code: "05", acquirer: "51", movesMoney: true, kind: .declined, outcomeCode: "51", retryable: false),
        Row(code: "05", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "05", retryable: false),
        Row(code: "05", acquirer: "00", movesMoney: true, kind: .declined, outcomeCode: "05", retryable: false),
        Row(code: "02", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "02", retryable: false),
        Row(code: "11", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "11", retryable: false),
        Row(code: "34", acquirer: nil, movesMoney: false, kind: .declined, outcomeCode: "34", retryable: false),
        Row(code: "54", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "54", retryable: false),
        Row(code: "63", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "63", retryable: false),
        Row(code: "75", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "75", retryable: false),
        Row(code: "41", acquirer: "43", movesMoney: true, kind: .declined, outcomeCode: "43", retryable: false),
        Row(code: "03", acquirer: nil, movesMoney: false, kind: .declined, outcomeCode: "03", retryable: false),
        Row(code: "12", acquirer: nil, movesMoney: false, kind: .declined, outcomeCode: "12", retryable: false),
        Row(code: "14", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "14", retryable: false),
        Row(code: "17", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "17", retryable: false),
        Row(code: "24", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "24", retryable: false),
        Row(code: "25", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "25", retryable: false),
        Row(code: "30", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "30", retryable: false),
        Row(code: "40", acquirer: nil, movesMoney: true, kind: .declined, outcomeCode: "40", retryable: false),
        Row(
            code: "97", acquirer: nil, movesMoney: false, kind: .declined, outcomeCode: "session_expired",
            retryable: false),
        Row(code: "88", acquirer: nil, movesMoney: true, kind: .unknown, outcomeCode: "unrecognised_code"),
        Row(code: nil, acquirer: nil, movesMoney: true, kind: .unknown, outcomeCode: "unparsable_response"),
        Row(code: "<b>", acquirer: nil, movesMoney: true, kind: .unknown, outcomeCode: "unrecognised_code"),
    ]

    @Test(arguments: rows)
    func responseCodeTable(_ row: Row) {
        let verdict = SipsMapping.classify(
            code: row.code, acquirer: row.acquirer, errorField: nil, movesMoney: row.movesMoney, noun: "payment")
        guard case .outcome(let outcome) = verdict else {
            Issue.record("expected an outcome for \(row)")
            return
        }
        #expect(outcome.kind == row.kind)
        #expect(outcome.code == row.outcomeCode)
        #expect(outcome.retryable == row.retryable)
        #expect(outcome.message?.isEmpty == false)
    }

    @Test func acceptedAndDuplicate() {
        #expect(SipsMapping.classify(code: "00", acquirer: "05", errorField: nil, service: .validate) == .accepted)
        #expect(
            SipsMapping.classify(code: "94", acquirer: nil, errorField: nil, service: .orderInitialize) == .duplicate)
        #expect(SipsMapping.duplicateOutcome(.refund).kind == .unknown)
        #expect(SipsMapping.duplicateOutcome(.refund).code == "duplicate_transaction")
    }

    @Test func servicesKnowWhetherTheyMoveMoney() {
        let moving = SipsService.allCases.filter(\.movesMoney)
        #expect(Set(moving) == [.validate, .cancel, .refund])
        let inquiry = SipsMapping.classify(code: "05", acquirer: "91", errorField: nil, service: .getWalletData)
        #expect(inquiry.outcome?.kind == .notSent)
        let refund = SipsMapping.classify(code: "05", acquirer: "91", errorField: nil, service: .refund)
        #expect(refund.outcome?.kind == .declined && refund.outcome?.retryable == true)
    }

    @Test func formatErrorsNameTheFieldOnly() {
        let verdict = SipsMapping.classify(
            code: "30", acquirer: nil, errorField: "operationAmount", service: .validate)
        let outcome = verdict.outcome
        #expect(outcome?.message?.contains("operationAmount") == true)
        let hostile = SipsMapping.classify(
            code: "30", acquirer: nil, errorField: "x\" secret 4111111111111111", service: .validate)
        #expect(hostile.outcome?.message?.contains("4111111111111111") == false)
    }

    static let statuses: [(String?, Outcome.Kind)] = [
        ("TO_VALIDATE", .authorized), ("TO_CAPTURE", .succeeded), ("CAPTURED", .succeeded), ("CREDITED", .succeeded),
        ("CANCELLED", .canceled), ("REFUSED", .declined), ("PENDING", .pending), ("to_capture", .succeeded),
        ("EXPIRED", .unknown), (nil, .unknown),
    ]

    @Test func transactionStatusTable() {
        for (status, kind) in Self.statuses {
            #expect(SipsMapping.transactionStatusKind(status) == kind, "\(status ?? "nil")")
        }
    }

    // MARK: Transport and seal

    static func classify(_ result: OutboundResult) -> ExchangeResult<SipsCashManagementResponse> {
        SipsMapping.classify(result, secret: Fixtures.secretKey, as: SipsCashManagementResponse.self)
    }

    @Test func transportFailures() {
        #expect(Self.classify(OutboundResult(kind: .notSent, reason: "refused")).outcome?.kind == .notSent)
        let noResponse = Self.classify(OutboundResult(kind: .noResponse, reason: "timeout")).outcome
        #expect(noResponse?.kind == .unknown && noResponse?.code == "no_response")
        let http = Self.classify(Fixtures.json(.object(["responseCode": .string("00")]), status: 503)).outcome
        #expect(http?.kind == .unknown && http?.code == "http_503")
        let garbage = Self.classify(OutboundResult(kind: .response, status: 200, body: Data("<html>".utf8))).outcome
        #expect(garbage?.kind == .unknown && garbage?.code == "unparsable_response")
        let array = Self.classify(Fixtures.json(.array([]))).outcome
        #expect(array?.code == "unparsable_response")
    }

    @Test func sealFailuresAreUnknown() {
        let unsealed = Self.classify(Fixtures.json(.object(["responseCode": .string("03")]))).outcome
        #expect(unsealed?.kind == .unknown && unsealed?.code == "unsealed_response")

        let body = Fixtures.cashAnswer().body ?? Data()
        var fields = (try? JSONDecoder().decode(JSONValue.self, from: body))?.objectValue ?? [:]
        #expect(fields["seal"] != nil)
        fields["responseCode"] = .string("05")
        let tampered = Self.classify(Fixtures.json(.object(fields))).outcome
        #expect(tampered?.kind == .unknown && tampered?.code == "bad_response_seal")

        let otherKey = Self.classify(Fixtures.sealed(["responseCode": .string("00")], secret: "other_KEY1")).outcome
        #expect(otherKey?.code == "bad_response_seal")

        guard case .success(let answer) = Self.classify(Fixtures.cashAnswer("00", newStatus: "CAPTURED")) else {
            Issue.record("a sealed answer must decode")
            return
        }
        #expect(answer.responseCode == "00" && answer.newStatus == "CAPTURED")
    }
}

extension SipsCodeClass {
    /// The outcome, when classified as one.
    var outcome: Outcome? {
        if case .outcome(let outcome) = self { return outcome }
        return nil
    }
}
