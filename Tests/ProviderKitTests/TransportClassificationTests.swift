import Foundation
import ProviderKit
import Testing

@Suite("Transport classification into outcome classes")
struct TransportClassificationTests {
    /// What the classification ends in: an outcome's kind and code, or the status handed to the plugin.
    enum Verdict: Equatable {
        case outcome(Outcome.Kind, String?)
        case answer(Int)
    }

    static func verdict(_ result: OutboundResult, _ answered: AnsweredStatuses) -> Verdict {
        switch result.classified(provider: "Acme", answered: answered) {
        case .success(let answer): return .answer(answer.status)
        case .outcome(let outcome): return .outcome(outcome.kind, outcome.code)
        }
    }

    static func status(_ code: Int) -> OutboundResult {
        OutboundResult(kind: .response, status: code, body: Data("{}".utf8))
    }

    static let notSent = OutboundResult(kind: .notSent, reason: "connection refused")
    static let noResponse = OutboundResult(kind: .noResponse, reason: "read timeout")
    static let noStatus = OutboundResult(kind: .response)

    /// The classification table: what the host got back, the statuses the plugin reads, what follows.
    static let table: [(OutboundResult, AnsweredStatuses, Verdict)] = [
        // Transport failures, whatever the status table.
        (notSent, .all, .outcome(.notSent, "not_sent")),
        (notSent, .okOnly, .outcome(.notSent, "not_sent")),
        (noResponse, .belowServerError, .outcome(.unknown, "no_response")),
        (noResponse, .all, .outcome(.unknown, "no_response")),
        (noStatus, .all, .outcome(.unknown, "no_response")),
        // Only 200 is read.
        (status(200), .okOnly, .answer(200)),
        (status(201), .okOnly, .outcome(.unknown, "http_201")),
        (status(400), .okOnly, .outcome(.unknown, "http_400")),
        (status(503), .okOnly, .outcome(.unknown, "http_503")),
        // Everything below 500 is read.
        (status(200), .belowServerError, .answer(200)),
        (status(404), .belowServerError, .answer(404)),
        (status(499), .belowServerError, .answer(499)),
        (status(500), .belowServerError, .outcome(.unknown, "http_500")),
        (status(502), .belowServerError, .outcome(.unknown, "http_502")),
        // The plugin's table reads every status.
        (status(302), .all, .answer(302)),
        (status(409), .all, .answer(409)),
        (status(503), .all, .answer(503)),
    ]

    @Test(arguments: TransportClassificationTests.table)
    func classification(result: OutboundResult, answered: AnsweredStatuses, expected: Verdict) {
        #expect(Self.verdict(result, answered) == expected)
    }

    @Test func messagesNameTheProviderAndTheStatus() {
        let notSent = Self.notSent.classified(provider: "Acme", answered: .all).outcome
        #expect(notSent?.message == "request not sent to Acme")
        let timeout = Self.noResponse.classified(provider: "Acme", answered: .all).outcome
        #expect(timeout?.message == "no complete answer from Acme")
        let server = Self.status(504).classified(provider: "Acme", answered: .okOnly).outcome
        #expect(server?.message == "Acme answered HTTP 504")
    }

    @Test func theAnswerKeepsHeadersAndBody() {
        let result = OutboundResult(
            kind: .response, status: 201, headers: [HTTPHeader("Signature", "s1")], body: Data("x".utf8))
        guard case .success(let answer) = result.classified(provider: "Acme", answered: .all) else {
            Issue.record("a 201 must be handed to the plugin")
            return
        }
        #expect(answer.isSuccess && answer.header("signature") == "s1" && answer.body == Data("x".utf8))
        #expect(!ProviderAnswer(status: 302).isSuccess)
    }

    @Test func theStatusTableHookDecidesAfterTransport() {
        let hook: (ProviderAnswer) -> ExchangeResult<String> = { answer in
            answer.status == 409 ? .outcome(.unknown(code: "in_progress", message: "busy")) : .success("ok")
        }
        let conflict = Self.status(409).classified(provider: "Acme", answered: .all).flatMap(hook)
        #expect(conflict.outcome?.code == "in_progress")
        let refused = Self.notSent.classified(provider: "Acme", answered: .all).flatMap(hook)
        #expect(refused.outcome?.kind == .notSent)
        guard case .success(let text) = Self.status(200).classified(provider: "Acme", answered: .all).flatMap(hook)
        else {
            Issue.record("a 200 must reach the hook")
            return
        }
        #expect(text == "ok")
    }

    @Test func outcomesNameThePaymentOnlyWhenTheyDoNot() {
        let named = ExchangeResult<Int>.outcome(.unknown(code: "x", message: "m")).naming("pay_1")
        #expect(named.outcome?.providerPaymentId == "pay_1")
        let kept = Outcome.unknown(code: "x", message: "m", providerPaymentId: "pay_0").naming("pay_1")
        #expect(kept.providerPaymentId == "pay_0")
        #expect(ExchangeResult<Int>.success(3).naming("pay_1").resolve { _ in .notSent("n") }.kind == .notSent)
    }
}
