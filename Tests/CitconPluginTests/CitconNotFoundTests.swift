import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

/// An inquiry by our reference that Citcon answers "not found" (HTTP 404 / `4004`) proves the charge never
/// reached Citcon only once the safe delay since the attempt's start has passed.
@Suite struct CitconNotFoundTests {
    static let now = Date(timeIntervalSince1970: 1_762_600_000)
    static let byReference = PaymentLocator(attemptId: "att_1", providerPaymentId: nil)

    static let notFoundAnswers = [
        Fixtures.fail(code: "4004", message: "transaction not found", status: 404),
        OutboundResult(kind: .response, status: 404),
    ]

    func sync(_ answer: OutboundResult, startedAgo: TimeInterval?, options: [String: String] = [:]) async throws
        -> Outcome
    {
        let host = FakeHost(routes: ["GET /v1/transactions/att_1": answer], now: Self.now)
        var account = Fixtures.account()
        account.options = options
        let request = SyncRequest(
            payment: Self.byReference, attemptStartedAt: startedAgo.map { Self.now.addingTimeInterval(-$0) })
        return try await CitconProvider(host: host).sync(request, account: account)
    }

    @Test(arguments: notFoundAnswers)
    func notFoundAfterTheDelayIsNotSent(answer: OutboundResult) async throws {
        let outcome = try await sync(answer, startedAgo: 60)
        #expect(outcome.kind == .notSent)
        #expect(outcome.code == "not_received")
        #expect(outcome.provesNotReceived)
    }

    @Test(arguments: notFoundAnswers)
    func notFoundBeforeTheDelayIsStillUnknown(answer: OutboundResult) async throws {
        let outcome = try await sync(answer, startedAgo: 59)
        #expect(outcome.kind == .unknown)
        #expect(outcome.code == "not_found_yet")
    }

    @Test func withoutTheAttemptsStartNotFoundStaysUnknown() async throws {
        let outcome = try await sync(Self.notFoundAnswers[0], startedAgo: nil)
        #expect(outcome.kind == .unknown && outcome.code == "not_found_yet")
    }

    @Test func theAccountOptionSetsTheDelay() async throws {
        let options = ["not_found_delay_seconds": "300"]
        #expect(try await sync(Self.notFoundAnswers[0], startedAgo: 299, options: options).kind == .unknown)
        #expect(try await sync(Self.notFoundAnswers[0], startedAgo: 300, options: options).kind == .notSent)
        let unreadable = ["not_found_delay_seconds": "soon"]
        #expect(try await sync(Self.notFoundAnswers[0], startedAgo: 60, options: unreadable).kind == .notSent)
    }

    @Test func otherFailedInquiriesStayUnknownWhateverTheDelay() async throws {
        for answer in [
            OutboundResult(kind: .response, status: 500), OutboundResult(kind: .noResponse, reason: "timeout"),
            Fixtures.fail(code: "4000", message: "bad request"),
        ] {
            #expect(try await sync(answer, startedAgo: 3_600).kind == .unknown)
        }
        // The inquiry itself never left: that says nothing about the charge.
        let unsent = try await sync(OutboundResult(kind: .notSent, reason: "refused"), startedAgo: 3_600)
        #expect(unsent.kind == .notSent && !unsent.provesNotReceived)
    }

    @Test func notFoundByCitconsOwnIdProvesNothing() async throws {
        let host = FakeHost(
            routes: ["GET /v1/transactions/\(Fixtures.locator.providerPaymentId!)": Self.notFoundAnswers[0]],
            now: Self.now)
        let request = SyncRequest(payment: Fixtures.locator, attemptStartedAt: Self.now.addingTimeInterval(-3_600))
        let outcome = try await CitconProvider(host: host).sync(request, account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "not_found")
    }
}
