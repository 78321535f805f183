import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// An answer the provider gives after the attempt (a notification or an inquiry) counts in the routing
/// statistics once, like an answer given at once.
@Suite struct RoutingOutcomeLearningTests {
    private func stats(_ world: DomainWorld) async throws -> (approved: Int, declined: Int) {
        let all = try await world.payments.authorizationStats(
            tenant: world.tenant, window: AuthorizationStatsWindow(attempts: 100, since: .distantPast))
        let overall = all.filter { $0.country == nil }
        return (overall.reduce(0) { $0 + $1.approved }, overall.reduce(0) { $0 + $1.declined })
    }

    private func notification(_ world: DomainWorld, _ event: NotificationEvent) async throws {
        world.gateway.scriptNotification(event)
        let request = NotificationRequest(
            method: "POST", path: "/notifications", headers: [], body: Data(UUID().uuidString.utf8))
        _ = try await world.service.handleNotification(
            accountId: world.accounts[0], request: request, log: InMemoryNotificationLog())
    }

    @Test func aDeclineNotifiedLaterCountsOnce() async throws {
        let world = DomainWorld(accounts: 1)
        let record = try await world.create(Outcome(kind: .pending, providerPaymentId: "psp-late"))
        let attempt = try #require(record.lastAttempt)
        #expect(attempt.outcome == .pending)
        #expect(try await stats(world) == (0, 0))

        let declined = NotificationEvent(
            subject: .payment, reference: attempt.id, providerPaymentId: "psp-late",
            outcome: Outcome(kind: .declined, providerPaymentId: "psp-late", code: "do_not_honor"))
        try await notification(world, declined)
        let after = try await world.service.get(tenant: world.tenant, paymentId: record.payment.id)
        #expect(after.payment.status == .failed)
        #expect(after.lastAttempt?.outcome == .declined)
        #expect(try await stats(world) == (0, 1))

        // The same answer again (the provider resends it with a new body) does not count twice.
        try await notification(world, declined)
        #expect(try await stats(world) == (0, 1))
    }

    @Test func anApprovalLearntByInquiryCountsAndAnUnknownAnswerDoesNot() async throws {
        let world = DomainWorld(accounts: 1)
        let record = try await world.create(Outcome(kind: .pending, providerPaymentId: "psp-sync"))
        world.gateway.script(.sync, Outcome(kind: .unknown))
        _ = try await world.service.sync(tenant: world.tenant, paymentId: record.payment.id)
        #expect(try await stats(world) == (0, 0))
        world.gateway.script(.sync, Outcome(kind: .succeeded, providerPaymentId: "psp-sync"))
        let synced = try await world.service.sync(tenant: world.tenant, paymentId: record.payment.id)
        #expect(synced.lastAttempt?.outcome == .succeeded)
        #expect(try await stats(world) == (1, 0))
    }

    @Test func aKnownOutcomeIsNotOverwrittenByALaterAnswer() {
        var attempt = Attempt(
            id: "a", paymentId: "p", tenantId: UUID(), accountId: UUID(), pluginId: "x", sequence: 1, reason: "r",
            startedAt: Date(timeIntervalSince1970: 0))
        attempt.learn(Outcome(kind: .unknown))
        #expect(attempt.outcome == nil)
        attempt.learn(Outcome(kind: .pending, providerStatus: "PENDING"))
        #expect(attempt.outcome == .pending)
        attempt.learn(Outcome(kind: .authorized, providerStatus: "AUTHORIZED"))
        #expect(attempt.outcome == .authorized && attempt.providerStatus == "AUTHORIZED")
        attempt.learn(Outcome(kind: .declined, code: "05", message: "do not honour"))
        #expect(attempt.outcome == .authorized && attempt.code == nil)
    }

    @Test func aDeclineLearntLaterKeepsTheProvidersCode() {
        var attempt = Attempt(
            id: "a", paymentId: "p", tenantId: UUID(), accountId: UUID(), pluginId: "x", sequence: 1, reason: "r",
            startedAt: Date(timeIntervalSince1970: 0))
        attempt.record(Outcome(kind: .pending, providerPaymentId: "psp-1"), at: Date(timeIntervalSince1970: 1))
        attempt.learn(
            Outcome(kind: .declined, providerPaymentId: "psp-other", code: "51", message: "insufficient funds"))
        #expect(attempt.outcome == .declined)
        #expect(attempt.code == "51" && attempt.message == "insufficient funds")
        #expect(attempt.providerPaymentId == "psp-1", "the reference the attempt was made under stays")
    }
}
