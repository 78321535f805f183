import Foundation
import ProviderKit
import Testing

@testable import __Name__Plugin

@Suite struct __Name__AuthorizeTests {
    func authorize(_ answer: OutboundResult) async throws -> (Outcome, FakeHost) {
        let host = FakeHost(routes: ["POST /v1/payments": answer])
        let outcome = try await __Name__Provider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        return (outcome, host)
    }

    @Test func succeededPaymentAndItsRequest() async throws {
        let (outcome, host) = try await authorize(Fixtures.payment("succeeded"))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == "pay_123")
        #expect(outcome.amount == 1250)
        let request = try #require(host.requests.first)
        #expect(host.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.url == Fixtures.baseURL + "/v1/payments")
        #expect(request.headers.contains(HTTPHeader("Idempotency-Key", "idem_att_1")))
        #expect(request.headers.contains(HTTPHeader("Authorization", "Bearer " + Fixtures.apiKey)))
        #expect(request.redactHeaders.contains("Authorization"))
        let body = try JSONDecoder().decode(JSONValue.self, from: try #require(request.body))
        #expect(body["reference"] == .string("att_1"))
        #expect(body["amount"] == .integer(1250))
        #expect(body["capture"] == .bool(true))
        #expect(body["notification_url"] == .string(Fixtures.account().notificationURL))
    }

    @Test func declinedPaymentIsData() async throws {
        let (outcome, _) = try await authorize(Fixtures.payment("declined", extra: #","failure_code":"card_declined""#))
        #expect(outcome.kind == .declined)
        #expect(outcome.code == "card_declined")
        #expect(outcome.providerPaymentId == "pay_123")
        #expect(outcome.retryable == false)
    }

    @Test func refusedRequestIsDeclinedWithTheProvidersCode() async throws {
        let (outcome, _) = try await authorize(
            Fixtures.error(code: "invalid_currency", message: "currency not enabled", status: 400))
        #expect(outcome.kind == .declined)
        #expect(outcome.code == "invalid_currency")
    }

    @Test func pendingPaymentRedirectsTheCustomer() async throws {
        let (outcome, _) = try await authorize(
            Fixtures.payment("requires_action", extra: #","redirect_url":"https://pay.test/3ds/1""#))
        #expect(outcome.kind == .pending)
        #expect(outcome.nextAction?.type == "redirect")
        #expect(outcome.nextAction?.data["url"] == .string("https://pay.test/3ds/1"))
    }

    @Test func requestThatNeverLeftIsNotSent() async throws {
        let (outcome, _) = try await authorize(OutboundResult(kind: .notSent, reason: "connection refused"))
        #expect(outcome.kind == .notSent)
    }

    @Test func serverErrorIsUnknown() async throws {
        let (outcome, _) = try await authorize(Fixtures.error(code: "internal", message: "boom", status: 500))
        #expect(outcome.kind == .unknown)
        #expect(outcome.code == "http_500")
    }

    @Test(arguments: Fixtures.unknownAnswers)
    func unreadableOrMissingAnswerIsUnknown(answer: OutboundResult) async throws {
        let (outcome, _) = try await authorize(answer)
        #expect(outcome.kind == .unknown)
    }

    @Test func idempotencyConflictIsUnknownAndRateLimitIsNotSent() async throws {
        #expect(try await authorize(Fixtures.error(code: "conflict", message: "busy", status: 409)).0.kind == .unknown)
        #expect(try await authorize(Fixtures.error(code: "slow_down", message: "", status: 429)).0.kind == .notSent)
    }

    @Test func missingAPIKeyIsMisconfiguredAndSendsNothing() async throws {
        let host = FakeHost()
        var account = Fixtures.account()
        account.credentials["api_key"] = nil
        await #expect(throws: ProviderError.missingCredential("api_key")) {
            try await __Name__Provider(host: host).authorize(Fixtures.authorizeRequest(), account: account)
        }
        #expect(host.requests.isEmpty)
    }

    @Test(
        arguments: Fixtures.unknownAnswers + [
            Fixtures.error(code: "bad", message: "rejected \(Fixtures.apiKey) \(Fixtures.webhookSecret)", status: 400)
        ])
    func noSecretInOutcomesOrLogs(answer: OutboundResult) async throws {
        let (outcome, host) = try await authorize(answer)
        let text = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
        for secret in Fixtures.secrets {
            #expect(!text.contains(secret))
            #expect(!host.allLoggedText.contains(secret))
        }
    }
}
