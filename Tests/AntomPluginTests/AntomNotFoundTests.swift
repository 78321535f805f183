import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

/// `inquiryPayment` answering `F ORDER_NOT_EXIST` for our request id proves the payment never reached Antom
/// only once the safe delay since the attempt's start has passed.
@Suite struct AntomNotFoundTests {
    static let byReference = PaymentLocator(attemptId: "att_1", providerPaymentId: nil)
    static let orderNotExist = "{\(Fixtures.result("F", "ORDER_NOT_EXIST"))}"

    static func sync(
        _ answer: String = orderNotExist, payment: PaymentLocator = byReference, startedAgo: TimeInterval?,
        options: [String: String] = [:]
    ) async throws -> Outcome {
        let host = FakeHost(routes: [
            Fixtures.route("payments/inquiryPayment"): Fixtures.signed("payments/inquiryPayment", answer)
        ])
        var account = Fixtures.account()
        account.options.merge(options) { $1 }
        let request = SyncRequest(
            payment: payment, attemptStartedAt: startedAgo.map { Fixtures.now.addingTimeInterval(-$0) })
        return try await AntomProvider(host: host).sync(request, account: account)
    }

    @Test func orderNotExistAfterTheDelayIsNotSent() async throws {
        let outcome = try await Self.sync(startedAgo: 60)
        #expect(outcome.kind == .notSent && outcome.code == "not_received")
        #expect(outcome.provesNotReceived)
    }

    @Test func orderNotExistBeforeTheDelayIsStillUnknown() async throws {
        let outcome = try await Self.sync(startedAgo: 59)
        #expect(outcome.kind == .unknown && outcome.code == "not_found_yet")
        let unknownStart = try await Self.sync(startedAgo: nil)
        #expect(unknownStart.kind == .unknown && unknownStart.code == "not_found_yet")
    }

    @Test func theAccountOptionSetsTheDelay() async throws {
        let options = ["not_found_delay_seconds": "120"]
        #expect(try await Self.sync(startedAgo: 119, options: options).kind == .unknown)
        #expect(try await Self.sync(startedAgo: 120, options: options).kind == .notSent)
    }

    @Test func orderNotExistForAntomsOwnIdStaysADecline() async throws {
        let outcome = try await Self.sync(payment: Fixtures.locator, startedAgo: 3_600)
        #expect(outcome.kind == .declined && outcome.code == "ORDER_NOT_EXIST")
    }

    @Test func otherFailuresAreNotJudgedAsNotFound() async throws {
        let busy = try await Self.sync("{\(Fixtures.result("U", "UNKNOWN_EXCEPTION"))}", startedAgo: 3_600)
        #expect(busy.kind == .unknown && busy.code == "UNKNOWN_EXCEPTION")
        let refused = try await Self.sync("{\(Fixtures.result("F", "ACCESS_DENIED"))}", startedAgo: 3_600)
        #expect(refused.kind == .declined && !refused.provesNotReceived)
    }
}
