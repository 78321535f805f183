import Foundation
import ProviderKit
import SwitchyardCrypto
import Testing

@testable import AntomPlugin

@Suite struct AntomClassificationTests {
    static func classify(_ result: OutboundResult, call: AntomCall = .pay) -> Outcome? {
        let exchange = AntomMapping.classify(
            result, call: call, path: Fixtures.signedPath(call.rawValue), clientId: Fixtures.clientId,
            publicKey: Fixtures.antomKey.publicKey, as: AntomPayResponse.self)
        switch exchange {
        case .success: return nil
        case .outcome(let outcome): return outcome
        }
    }

    static func answer(_ status: String, _ code: String) -> String {
        "{\(Fixtures.result(status, code))}"
    }

    /// Transport, HTTP and signature cases, with a body that would otherwise succeed.
    static let transport: [(String, OutboundResult, Outcome.Kind?, String?)] = [
        ("not sent", OutboundResult(kind: .notSent, reason: "refused"), .notSent, "not_sent"),
        ("no response", OutboundResult(kind: .noResponse, reason: "timeout"), .unknown, "no_response"),
        ("500", Fixtures.unsigned(answer("F", "PROCESS_FAIL"), status: 500), .unknown, "http_500"),
        ("400", Fixtures.unsigned(answer("F", "PARAM_ILLEGAL"), status: 400), .unknown, "http_400"),
        ("502 no body", OutboundResult(kind: .response, status: 502), .unknown, "http_502"),
        ("signed S", Fixtures.signed("payments/pay", answer("S", "SUCCESS")), nil, nil),
        ("unsigned S", Fixtures.unsigned(answer("S", "SUCCESS")), .unknown, "bad_response_signature"),
        ("unsigned F", Fixtures.unsigned(answer("F", "INVALID_SIGNATURE")), .declined, "INVALID_SIGNATURE"),
        ("unsigned U", Fixtures.unsigned(answer("U", "UNKNOWN_EXCEPTION")), .unknown, "UNKNOWN_EXCEPTION"),
        ("unreadable", Fixtures.unsigned("<html>"), .unknown, "unparsable_response"),
        ("no result", Fixtures.signed("payments/pay", #"{"paymentId":"p"}"#), .unknown, "unparsable_response"),
        (
            "signed by another key", Fixtures.signed("payments/pay", answer("S", "SUCCESS"), key: Fixtures.merchantKey),
            .unknown, "bad_response_signature"
        ),
        (
            "signed for another path", Fixtures.signed("payments/capture", answer("S", "SUCCESS")), .unknown,
            "bad_response_signature"
        ),
    ]

    @Test(arguments: transport) func classifiesTransport(
        name: String, result: OutboundResult, kind: Outcome.Kind?, code: String?
    ) {
        let outcome = Self.classify(result)
        #expect(outcome?.kind == kind, "\(name)")
        #expect(outcome?.code == code, "\(name)")
    }

    @Test func tamperedBodyIsUnknown() {
        var result = Fixtures.signed("payments/pay", #"{\#(Fixtures.result()),"paymentId":"p1"}"#)
        result.body = Data(#"{\#(Fixtures.result()),"paymentId":"p2"}"#.utf8)
        let outcome = Self.classify(result)
        #expect(outcome?.kind == .unknown && outcome?.code == "bad_response_signature")
        var tamperedF = Fixtures.signed("payments/pay", Self.answer("F", "RISK_REJECT"))
        tamperedF.body = Data(Self.answer("F", "RISK_REJECT ").utf8)
        #expect(Self.classify(tamperedF)?.code == "bad_response_signature")
    }

    @Test func halfSignedAnswersAreRejected() {
        let signed = Fixtures.signed("payments/pay", Self.answer("F", "RISK_REJECT"))
        var noTime = signed
        noTime.headers.removeAll { $0.name == "response-time" }
        var noSignature = signed
        noSignature.headers.removeAll { $0.name == "signature" }
        for result in [noTime, noSignature] {
            let outcome = Self.classify(result)
            #expect(outcome?.kind == .unknown && outcome?.code == "bad_response_signature")
        }
        var mangled = signed
        mangled.headers.removeAll { $0.name == "signature" }
        mangled.headers.append(HTTPHeader("Signature", "algorithm=RSA256,keyVersion=1,signature=AAAA"))
        #expect(Self.classify(mangled)?.code == "bad_response_signature")
    }

    @Test func signatureHeaderNamesAreCaseInsensitive() {
        var result = Fixtures.signed("payments/pay", Self.answer("S", "SUCCESS"))
        result.headers = result.headers.map { HTTPHeader($0.name.uppercased(), $0.value) }
        #expect(Self.classify(result) == nil)
    }

    /// The result status and code table, on signed answers.
    static let results: [(String, String, Outcome.Kind?, String?)] = [
        ("S", "SUCCESS", nil, nil),
        ("U", "PAYMENT_IN_PROCESS", .unknown, "PAYMENT_IN_PROCESS"),
        ("U", "REQUEST_TRAFFIC_EXCEED_LIMIT", .notSent, "REQUEST_TRAFFIC_EXCEED_LIMIT"),
        ("U", "UNKNOWN_EXCEPTION", .unknown, "UNKNOWN_EXCEPTION"),
        ("U", "SOMETHING_NEW", .unknown, "SOMETHING_NEW"),
        ("F", "USER_BALANCE_NOT_ENOUGH", .declined, "USER_BALANCE_NOT_ENOUGH"),
        ("F", "RISK_REJECT", .declined, "RISK_REJECT"),
        ("F", "INVALID_ACCESS_TOKEN", .declined, "INVALID_ACCESS_TOKEN"),
        ("F", "INVALID_TOKEN", .declined, "INVALID_TOKEN"),
        ("F", "USER_PAYMENT_VERIFICATION_FAILED", .declined, "USER_PAYMENT_VERIFICATION_FAILED"),
        ("F", "ORDER_IS_CLOSED", .declined, "ORDER_IS_CLOSED"),
        ("F", "PARAM_ILLEGAL", .declined, "PARAM_ILLEGAL"),
        ("F", "INVALID_SIGNATURE", .declined, "INVALID_SIGNATURE"),
        ("F", "INVALID_CLIENT", .declined, "INVALID_CLIENT"),
        ("F", "ACCESS_DENIED", .declined, "ACCESS_DENIED"),
        ("F", "KEY_NOT_FOUND", .declined, "KEY_NOT_FOUND"),
        ("F", "PROCESS_FAIL", .declined, "PROCESS_FAIL"),
        ("F", "REPEAT_REQ_INCONSISTENT", .declined, "REPEAT_REQ_INCONSISTENT"),
        ("F", "ORDER_NOT_EXIST", .declined, "ORDER_NOT_EXIST"),
        ("F", "REFUND_AMOUNT_EXCEED", .declined, "REFUND_AMOUNT_EXCEED"),
        ("F", "CANCEL_WINDOW_EXCEED", .declined, "CANCEL_WINDOW_EXCEED"),
        ("F", "A_NEW_CODE", .declined, "A_NEW_CODE"),
        ("F", "code with <script>", .declined, "UNRECOGNISED_CODE"),
        ("X", "SUCCESS", .unknown, "unrecognised_result"),
        ("", "SUCCESS", .unknown, "unrecognised_result"),
    ]

    @Test(arguments: results) func classifiesResults(
        status: String, code: String, kind: Outcome.Kind?, expected: String?
    ) {
        let outcome = Self.classify(Fixtures.signed("payments/pay", Self.answer(status, code)))
        #expect(outcome?.kind == kind, "\(status) \(code)")
        #expect(outcome?.code == expected, "\(status) \(code)")
        if outcome?.kind == .declined { #expect(outcome?.retryable == false) }
    }

    @Test func declineMessagesSayWhatKindOfRefusal() throws {
        let decline = try #require(
            AntomMapping.resultOutcome(AntomResult(resultCode: "RISK_REJECT", resultStatus: "F"), call: .pay))
        #expect(decline.message == "Antom declined the payment (RISK_REJECT)")
        let config = try #require(
            AntomMapping.resultOutcome(AntomResult(resultCode: "INVALID_SIGNATURE", resultStatus: "F"), call: .pay))
        #expect(config.message?.contains("configuration error") == true)
        #expect(config.message?.contains("nothing was charged") == true)
        let missing = try #require(
            AntomMapping.resultOutcome(AntomResult(resultCode: nil, resultStatus: "f"), call: .refund))
        #expect(missing.kind == .declined && missing.code == "PROCESS_FAIL")
    }

    @Test func providerTextIsNeverRepeated() throws {
        let result = AntomResult(resultCode: "RISK_REJECT", resultStatus: "F", resultMessage: "card 4054695723100768")
        let outcome = try #require(AntomMapping.resultOutcome(result, call: .pay))
        #expect(outcome.message?.contains("4054695723100768") == false)
    }
}
