import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconClassificationTests {
    static let allCalls: [CitconCall] = [.accessToken, .authorize, .capture, .void, .refund, .sync]
    static let moneyCalls: [CitconCall] = [.authorize, .capture, .void, .refund]

    func classify(_ result: OutboundResult, _ call: CitconCall) -> Outcome? {
        switch CitconMapping.classify(result, call: call, as: CitconOperationData.self, secrets: Fixtures.secrets) {
        case .success: return nil
        case .outcome(let outcome): return outcome
        }
    }

    @Test(arguments: allCalls)
    func transportNotSentIsNotSent(call: CitconCall) {
        let outcome = classify(OutboundResult(kind: .notSent, reason: "connection refused"), call)
        #expect(outcome?.kind == .notSent)
    }

    @Test(arguments: allCalls)
    func noResponseIsUnknown(call: CitconCall) {
        let outcome = classify(OutboundResult(kind: .noResponse, reason: "read timeout"), call)
        #expect(outcome?.kind == .unknown)
        #expect(outcome?.code == "no_response")
    }

    @Test(arguments: allCalls, [500, 502, 503, 504])
    func serverErrorsAreUnknown(call: CitconCall, status: Int) {
        let failEnvelope = classify(Fixtures.fail(code: "5000", message: "oops", status: status), call)
        let bare = classify(OutboundResult(kind: .response, status: status, body: Data("<html>".utf8)), call)
        #expect(failEnvelope?.kind == .unknown)
        #expect(bare?.kind == .unknown)
        #expect(bare?.code == "http_\(status)")
    }

    @Test(arguments: [CitconCall.authorize, .capture, .void, .refund, .sync])
    func expiredTokenIsAuthExpired(call: CitconCall) {
        let withCode = classify(Fixtures.fail(code: "4010", message: "invalid token", status: 401), call)
        let bare401 = classify(OutboundResult(kind: .response, status: 401), call)
        let code200 = classify(Fixtures.fail(code: "4010", message: "invalid token", status: 200), call)
        #expect(withCode?.kind == .authExpired)
        #expect(bare401?.kind == .authExpired)
        #expect(code200?.kind == .authExpired)
    }

    @Test func refusedPrivateKeyIsADefinitiveTokenFailure() {
        let outcome = classify(Fixtures.fail(code: "4010", message: "unknown key", status: 401), .accessToken)
        #expect(outcome?.kind == .declined)
        #expect(outcome?.code == "4010")
    }

    @Test(arguments: moneyCalls)
    func duplicateReferenceIsUnknown(call: CitconCall) {
        let outcome = classify(Fixtures.fail(code: "4100", message: "duplicate request"), call)
        #expect(outcome?.kind == .unknown)
        #expect(outcome?.code == "4100")
    }

    @Test(arguments: [
        (CitconCall.capture, "4201"), (.capture, "4203"), (.void, "4205"), (.refund, "4206"), (.refund, "4208"),
        (.authorize, "4000"),
    ])
    func businessFailuresAreDeclinedWithCitconsCode(call: CitconCall, code: String) {
        let outcome = classify(Fixtures.fail(code: code, message: "refused by rule"), call)
        #expect(outcome?.kind == .declined)
        #expect(outcome?.code == code)
        #expect(outcome?.message == "refused by rule")
        #expect(outcome?.retryable == false)
    }

    @Test func failedSyncIsNeverADecline() {
        #expect(classify(Fixtures.fail(code: "4004", message: "not found", status: 404), .sync)?.code == "not_found")
        #expect(classify(OutboundResult(kind: .response, status: 404), .sync)?.code == "not_found")
        let other = classify(Fixtures.fail(code: "4000", message: "bad"), .sync)
        #expect(other?.kind == .unknown)
    }

    @Test(arguments: allCalls)
    func unparsableSuccessIsUnknown(call: CitconCall) {
        let garbage = classify(OutboundResult(kind: .response, status: 200, body: Data("not json".utf8)), call)
        let empty = classify(OutboundResult(kind: .response, status: 200), call)
        let wrongShape = classify(Fixtures.success(#"{"unexpected":true}"#), call)
        for outcome in [garbage, empty, wrongShape] {
            #expect(outcome?.kind == .unknown)
            #expect(outcome?.code == "unparsable_response")
        }
    }

    @Test func unreadableClientErrorIsUnknown() {
        let outcome = classify(OutboundResult(kind: .response, status: 400, body: Data("<html>".utf8)), .capture)
        #expect(outcome?.kind == .unknown)
        #expect(outcome?.code == "http_400")
    }

    @Test func successDecodesThePayload() throws {
        let result = Fixtures.success(#"{"id":"cap_1","object":"capture","status":"succeeded","amount":5}"#)
        let exchange = CitconMapping.classify(result, call: .capture, as: CitconOperationData.self, secrets: [])
        guard case .success(let data) = exchange else {
            Issue.record("expected success")
            return
        }
        #expect(data.id == "cap_1")
        #expect(data.amount == 5)
    }

    @Test func scrubRemovesSecretsAndTokens() {
        let text = CitconMapping.scrub(
            "bad key \(Fixtures.privateKey) and token UPI_eyJhbGciOi.abc-def_1 rejected", secrets: Fixtures.secrets
        )
        #expect(!text.contains(Fixtures.privateKey))
        #expect(!text.contains("UPI_"))
        #expect(text.contains("rejected"))
        #expect(CitconMapping.scrub(String(repeating: "x", count: 500), secrets: []).count == 200)
    }
}
