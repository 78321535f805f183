import Foundation
import ProviderKit
import Testing

/// Host services that answer every request with one result and record what the plugin sent and logged.
final class RecordingHost: HostServices, @unchecked Sendable {
    struct Line: Equatable {
        var level: PluginLogLevel
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private let answer: OutboundResult
    private var sentRequests: [OutboundRequest] = []
    private var lines: [Line] = []

    init(answer: OutboundResult) {
        self.answer = answer
    }

    var sent: [OutboundRequest] { lock.withLock { sentRequests } }
    var logs: [Line] { lock.withLock { lines } }

    func send(_ request: OutboundRequest) async -> OutboundResult {
        lock.withLock { sentRequests.append(request) }
        return answer
    }

    func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        lock.withLock { lines.append(Line(level: level, message: message, metadata: metadata)) }
    }

    func now() -> Date { Date(timeIntervalSince1970: 1_700_000_000) }
}

@Suite("The provider exchange: send, classify, log")
struct ProviderExchangeTests {
    struct Payment: Decodable, Sendable, Equatable {
        var id: String
    }

    static let token = Secret("tok_secret_value_77")
    static let account = AccountContext(
        accountId: "acct_9", environment: "sandbox", baseURL: "https://p.test", credentials: ["api_key": "k_1234"],
        notificationURL: "")

    /// A plugin's classification: 200 only, a `{"id"}` body, a 402 as a decline.
    static func classify(_ result: OutboundResult) -> ExchangeResult<Payment> {
        result.classified(provider: "Acme", answered: .belowServerError).flatMap { answer in
            if answer.status == 402 { return .outcome(.declined(code: "card_declined", message: "declined")) }
            guard answer.isSuccess, let payment = ProviderJSON.standard.decode(Payment.self, from: answer.body) else {
                return .outcome(.unknown(code: "unparsable_response", message: "unreadable answer from Acme"))
            }
            return .success(payment)
        }
    }

    func run(_ answer: OutboundResult, host: RecordingHost? = nil) async -> (ExchangeResult<Payment>, RecordingHost) {
        let host = host ?? RecordingHost(answer: answer)
        let request = OutboundRequest(
            method: "POST", url: ProviderURL.join(base: Self.account.baseURL, path: "/v1/pay"),
            headers: [.jsonContent, .bearer(Self.token)], body: Data("{}".utf8), redactHeaders: ["Authorization"])
        let result = await ProviderExchange(host: host, logName: "acme").send(
            request, call: "pay", account: Self.account, classify: Self.classify)
        return (result, host)
    }

    @Test func aDecodedAnswerIsLoggedAtDebug() async throws {
        let (result, host) = await run(OutboundResult(kind: .response, status: 200, body: Data(#"{"id":"p1"}"#.utf8)))
        guard case .success(let payment) = result else {
            Issue.record("the answer must decode")
            return
        }
        #expect(payment == Payment(id: "p1"))
        #expect(
            host.logs == [
                RecordingHost.Line(
                    level: .debug, message: "acme call done",
                    metadata: ["provider.account": "acct_9", "acme.call": "pay", "http.status": "200"])
            ])
        let sent = try #require(host.sent.first)
        #expect(sent.url == "https://p.test/v1/pay")
        #expect(sent.headers.contains(HTTPHeader("Authorization", "Bearer tok_secret_value_77")))
        #expect(sent.redactHeaders == ["Authorization"])
    }

    @Test func outcomesAreLoggedWithKindAndCode() async {
        let (declined, declineHost) = await run(OutboundResult(kind: .response, status: 402, body: Data("{}".utf8)))
        #expect(declined.outcome?.code == "card_declined")
        #expect(declineHost.logs.map(\.level) == [.info])
        #expect(declineHost.logs.first?.metadata["outcome.kind"] == "declined")

        let (timeout, timeoutHost) = await run(OutboundResult(kind: .noResponse, reason: "read timeout"))
        #expect(timeout.outcome?.kind == .unknown)
        let line = timeoutHost.logs.first
        #expect(line?.level == .warning && line?.message == "acme call not completed")
        #expect(line?.metadata["http.status"] == "noResponse" && line?.metadata["outcome.code"] == "no_response")
    }

    @Test func theCallKeyCanBeNamed() async {
        let host = RecordingHost(answer: OutboundResult(kind: .notSent, reason: "refused"))
        _ = await ProviderExchange(host: host, logName: "acme", callKey: "acme.service").send(
            OutboundRequest(method: "GET", url: "https://p.test/x"), call: "x", account: Self.account,
            classify: Self.classify)
        #expect(host.logs.first?.metadata["acme.service"] == "x")
    }

    @Test func logsNeverCarryTheTokenOrTheBody() async {
        let (_, host) = await run(
            OutboundResult(kind: .response, status: 200, body: Data(#"{"id":"tok_secret_value_77"}"#.utf8)))
        let text = host.logs.map { "\($0.message) \($0.metadata)" }.joined()
        #expect(!text.contains(Self.token.reveal()))
    }

    @Test func notificationHelpersRejectAndReadHeaders() {
        let host = RecordingHost(answer: OutboundResult(kind: .notSent))
        let request = NotificationRequest(
            method: "POST", path: "/n", headers: [HTTPHeader("X-Sig", "a"), HTTPHeader("x-sig", "b")], body: Data())
        #expect(request.headerValues("X-SIG") == ["a", "b"] && request.header("x-sig") == "a")
        let result = host.rejectNotification(
            "signature mismatch", reply: .body("unverified", status: 401), account: Self.account,
            message: "acme notification rejected", reasonKey: "acme.reason", secretFields: ["token"])
        #expect(!result.verified && result.events.isEmpty && result.failureReason == "signature mismatch")
        #expect(
            result.reply
                == NotificationReply(
                    status: 401, headers: [HTTPHeader("Content-Type", "text/plain")], body: "unverified"))
        #expect(result.secretFields == ["token"])
        #expect(
            host.logs == [
                RecordingHost.Line(
                    level: .warning, message: "acme notification rejected",
                    metadata: ["provider.account": "acct_9", "acme.reason": "signature mismatch"])
            ])
    }

    @Test func paymentLocatorsNameTheProviderId() throws {
        #expect(PaymentLocator(attemptId: "att_1", providerPaymentId: "").knownProviderPaymentId == nil)
        #expect(throws: ProviderError(code: "missing_provider_payment_id", message: "sync first")) {
            try PaymentLocator(attemptId: "att_1", providerPaymentId: nil).requireProviderPaymentId("sync first")
        }
        #expect(try PaymentLocator(attemptId: "att_1", providerPaymentId: "p9").requireProviderPaymentId("x") == "p9")
    }
}
