import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both payment repositories promise about the authorisation statistics: each attempt's definite answer
/// is recorded once, in the attempt's own write; the window keeps the newest answers, none too old; and
/// every account × method × currency has an all-countries entry and one per country.
struct RoutingStatsContractTests {
    /// Stores a payment in `country` and its first attempt with `outcome`, finished now.
    func answer(
        _ s: ContractSubject, _ n: Int, _ outcome: Outcome.Kind?, country: String = "FR"
    ) async throws {
        var p = s.payment("pay_\(n)")
        p.country = country
        var a = s.attempt("att_\(n)", of: p.id)
        a.outcome = outcome
        a.finishedAt = s.clock.date
        try await s.payments.commit(PaymentChanges(payment: p, attempts: [a]))
    }

    func stats(_ s: ContractSubject, attempts: Int = 200, since: Date? = nil) async throws -> [AuthorizationStats] {
        try await s.stats.authorizationStats(
            tenant: s.tenant,
            window: AuthorizationStatsWindow(
                attempts: attempts, since: since ?? s.clock.date.addingTimeInterval(-3_600)))
    }

    /// The all-countries entry of the subject's account for card in EUR.
    func overall(_ stats: [AuthorizationStats], _ s: ContractSubject) -> AuthorizationStats? {
        stats.first { $0.accountId == s.account && $0.method == "card" && $0.currency == "EUR" && $0.country == nil }
    }

    @Test(arguments: Backend.allCases)
    func anAttemptWrittenAgainCountsOnce(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await answer(s, 1, .authorized)
        var a = s.attempt("att_1", of: "pay_1")
        a.finishedAt = s.clock.date
        // Captured later, then the same write replayed: still one answer.
        a.outcome = .succeeded
        try await s.payments.commit(PaymentChanges(attempts: [a]))
        try await s.payments.commit(PaymentChanges(attempts: [a]))
        let entry = try #require(overall(try await stats(s), s))
        #expect(entry.approved == 1)
        #expect(entry.declined == 0)
    }

    @Test(arguments: Backend.allCases)
    func onlyDefiniteAnswersCount(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await answer(s, 1, .succeeded)
        try await answer(s, 2, .declined)
        try await answer(s, 3, .declined)
        for (n, outcome) in [(4, Outcome.Kind.notSent), (5, .unknown), (6, .pending), (7, .canceled), (8, nil)] {
            try await answer(s, n, outcome)
        }
        let all = try await stats(s)
        let entry = try #require(overall(all, s))
        #expect((entry.approved, entry.declined) == (1, 2))
        #expect(entry.newest == s.clock.date)
        #expect(all.count == 2)  // all countries, and FR
    }

    @Test(arguments: Backend.allCases)
    func anAnswerLearntLaterCounts(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await answer(s, 1, .unknown)
        #expect(try await stats(s).isEmpty)
        var a = s.attempt("att_1", of: "pay_1")
        a.outcome = .declined
        a.finishedAt = s.clock.date
        try await s.payments.commit(PaymentChanges(attempts: [a]))
        #expect(overall(try await stats(s), s)?.declined == 1)
    }

    @Test(arguments: Backend.allCases)
    func theWindowKeepsTheNewestAnswers(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        // Two old declines, then three approvals a minute apart.
        for n in 1...5 {
            try await answer(s, n, n <= 2 ? .declined : .succeeded)
            s.clock.advance(60)
        }
        let byCount = try #require(overall(try await stats(s, attempts: 3), s))
        #expect((byCount.approved, byCount.declined) == (3, 0))
        let byCountFour = try #require(overall(try await stats(s, attempts: 4), s))
        #expect((byCountFour.approved, byCountFour.declined) == (3, 1))
        // Answers decided before `since` are left out however few there are.
        let since = s.clock.date.addingTimeInterval(-150)  // the answers at 180 and 240 s of 300
        let byTime = try #require(overall(try await stats(s, since: since), s))
        #expect((byTime.approved, byTime.declined) == (2, 0))
    }

    @Test(arguments: Backend.allCases)
    func eachCountryHasItsOwnEntry(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await answer(s, 1, .succeeded, country: "FR")
        try await answer(s, 2, .declined, country: "FR")
        try await answer(s, 3, .declined, country: "DE")
        s.clock.advance(1)
        try await answer(s, 4, .succeeded, country: "DE")
        let all = try await stats(s, attempts: 3)
        // The all-countries entry counts the newest three (ties broken by attempt id, newest first: att_4,
        // att_3, att_2); each country counts its own newest three.
        let every = try #require(overall(all, s))
        #expect((every.approved, every.declined) == (1, 2))
        let fr = try #require(all.first { $0.country == "FR" })
        let de = try #require(all.first { $0.country == "DE" })
        #expect((fr.approved, fr.declined) == (1, 1))
        #expect((de.approved, de.declined) == (1, 1))
        #expect(all.count == 3)
        // Another tenant sees none of it.
        #expect(
            try await s.stats.authorizationStats(
                tenant: UUID(), window: AuthorizationStatsWindow(attempts: 10, since: Date(timeIntervalSince1970: 0))
            ).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func pruningDeletesOnlyOldAnswersABoundedNumberAtATime(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        for n in 1...3 { try await answer(s, n, .succeeded) }
        s.clock.advance(3_600)
        try await answer(s, 4, .declined)
        let cutoff = s.clock.date.addingTimeInterval(-60)
        #expect(try await s.stats.pruneRoutingOutcomes(before: cutoff, limit: 2) == 2)
        #expect(try await s.stats.pruneRoutingOutcomes(before: cutoff, limit: 2) == 1)
        #expect(try await s.stats.pruneRoutingOutcomes(before: cutoff, limit: 2) == 0)
        let left = try #require(overall(try await stats(s, since: Date(timeIntervalSince1970: 0)), s))
        #expect((left.approved, left.declined) == (0, 1))
    }
}
