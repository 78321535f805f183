import Foundation
import NIOHTTP1
import SwitchyardBench
import SwitchyardCommands

/// The phases of `switchyard bench routing`, driven through the admin API, the merchant API and the
/// sandbox's fault surface.
struct BenchRoutingExperiment: Sendable {
    struct Settings: Sendable {
        var payments: Int
        var window: Int
        var recoveryLimit: Int
        var declineA: Double
        var declineB: Double
        var feeDeclineA: Double
        var seed: Int
        var maxRateLoss: Double
        var explorationShare: Double?
        var concurrency: Int
        var experiments: Set<Experiment> = Set(Experiment.allCases)
        /// Payments logged under the live routing before the replay, and sent under the draft after it.
        var replayPayments = 600
        var replayFreshPayments = 1200
        /// The z of the server's intervals (`adaptive_routing.confidence_z`), for the prediction intervals.
        var confidenceZ = 1.96
        /// The rollouts' draft share, guardrail, min_samples, and the most payments each may send.
        var rolloutShare = 0.5
        var guardrailPP = 3.0
        var rolloutMinSamples = 2000
        var rolloutLimit = 10_000
    }

    let http: BenchHTTP
    let serverURL: String
    let operatorToken: String
    let sandbox: BenchRoutingSandbox
    let settings: Settings

    /// A's share over the last window at or above which A counts as back.
    static let recoveredShare = 0.5

    /// The experiments `switchyard bench routing` can run, in the order it runs them.
    enum Experiment: String, CaseIterable, Sendable {
        /// Ordered against adaptive routing, recovery and the fee step.
        case adaptive
        /// A replay's prediction for a draft against the rate the draft achieves once live.
        case replay
        /// Guarded rollouts of a bad and a good draft.
        case rollout
    }

    /// A tenant of the experiment with its API key and its accounts on merchants A and B.
    struct Shop: Sendable {
        var tenantId: String
        var apiKey: String
        var a: String
        var b: String
        var payer: BenchRoutingPayer

        func account(_ side: BenchRoutingPayment.Side) -> String { side == .a ? a : b }
    }

    func run() async throws -> BenchRoutingReport {
        var report = BenchRoutingReport(
            command: "switchyard " + CommandLine.arguments.dropFirst().joined(separator: " "),
            startedAt: ISO8601DateFormatter().string(from: Date()), tenantId: "", accountA: "", accountB: "",
            phases: [], notes: [])
        if settings.experiments.contains(.adaptive) {
            let shop = try await shop("Routing experiment")
            (report.tenantId, report.accountA, report.accountB) = (shop.tenantId, shop.a, shop.b)
            try await adaptive(shop, into: &report)
        }
        if settings.experiments.contains(.replay) {
            report.replay = try await replay(try await shop("Routing replay"))
        }
        if settings.experiments.contains(.rollout) {
            report.rollouts = try await rollouts()
        }
        return report
    }

    /// A new tenant named `name` with an API key and an account on each sandbox merchant.
    func shop(_ name: String) async throws -> Shop {
        let tenant = try await admin(.POST, "/admin/v1/tenants", ["name": name])
        guard let tenantId = tenant["id"] as? String else { throw BenchFailure("the server created no tenant") }
        let key = try await admin(
            .POST, "/admin/v1/tenants/\(tenantId)/api-keys", ["name": "bench", "scopes": ["payments", "admin"]])
        guard let apiKey = key["secret"] as? String else { throw BenchFailure("the server issued no API key") }
        var ids: [String] = []
        for (name, merchant) in [("A", sandbox.merchantA), ("B", sandbox.merchantB)] {
            let created = try await admin(
                .POST, "/admin/v1/tenants/\(tenantId)/provider-accounts",
                sandbox.account(name: name, merchant: merchant))
            guard let id = (created["id"] as? String)?.lowercased() else { throw BenchFailure("no account \(name)") }
            ids.append(id)
        }
        let payer = BenchRoutingPayer(
            http: http, serverURL: serverURL, sandboxURL: sandbox.url, apiKey: apiKey,
            accounts: [ids[0]: .a, ids[1]: .b])
        return Shop(tenantId: tenantId, apiKey: apiKey, a: ids[0], b: ids[1], payer: payer)
    }

    /// The adaptive experiment's phases, appended to `report`.
    private func adaptive(_ shop: Shop, into report: inout BenchRoutingReport) async throws {
        let (tenantId, a, b, payer) = (shop.tenantId, shop.a, shop.b, shop.payer)
        if let share = settings.explorationShare {
            _ = try await admin(
                .PUT, "/admin/v1/tenants/\(tenantId)/policy", ["adaptive_routing": ["exploration_share": share]])
        }
        let routing = "/admin/v1/tenants/\(tenantId)/routing"
        func rule(_ accounts: [String], _ extra: [String: Any] = [:]) -> [String: Any] {
            let rule: [String: Any] = [
                "name": "cards", "match": Self.cards, "accounts": accounts,
            ]
            return ["rules": [rule.merging(extra) { _, new in new }]]
        }
        var declines = (a: settings.declineA, b: settings.declineB)
        try await setDecline(sandbox.merchantA.merchantId, declines.a)
        try await setDecline(sandbox.merchantB.merchantId, declines.b)

        // (a) The static baseline: every payment tries A first.
        _ = try await admin(.PUT, routing, rule([a, b]))
        report.phases.append(
            await phase("ordered", rule: "ordered A, B", declines: declines, payer: payer, count: settings.payments))

        // (b) The same traffic under the adaptive strategy.
        do {
            let saved = try await admin(.PUT, routing, rule([a, b], ["strategy": "adaptive"]))
            guard Self.strategy(of: saved) == "adaptive" else { throw BenchFailure("the saved rule has no strategy") }
        } catch {
            report.notes.append("adaptive phases skipped: the server does not take strategy adaptive (\(error))")
            return
        }
        report.phases.append(
            await phase("adaptive", rule: "adaptive A, B", declines: declines, payer: payer, count: settings.payments))

        // (c) A recovers: its fault is removed; exploration has to notice.
        try await setDecline(sandbox.merchantA.merchantId, nil)
        declines.a = 0
        report.phases.append(await recovery(declines: declines, payer: payer))

        // (d) A much cheaper and declining a little more than B: within max_rate_loss, the cheaper account wins.
        declines.a = settings.feeDeclineA
        try await setDecline(sandbox.merchantA.merchantId, declines.a)
        do {
            try await setFees(tenantId, a, fixed: 0, basisPoints: 50)
            try await setFees(tenantId, b, fixed: 30, basisPoints: 290)
            let saved = try await admin(
                .PUT, routing, rule([b, a], ["strategy": "adaptive", "max_rate_loss": settings.maxRateLoss]))
            guard Self.strategy(of: saved) == "adaptive" else { throw BenchFailure("the saved rule has no strategy") }
        } catch {
            report.notes.append("fee phase skipped: the server does not take fees or max_rate_loss (\(error))")
            return
        }
        let loss = BenchTable.number(settings.maxRateLoss, 1)
        report.phases.append(
            await phase(
                "fees", rule: "adaptive B, A, max_rate_loss \(loss) pp, A cheaper", declines: declines, payer: payer,
                count: settings.payments))
    }

    /// The match of the experiment's rules: EUR cards.
    static var cards: [String: Any] { ["currencies": ["EUR"], "methods": ["card"]] }

    /// Sends `count` payments and summarises them.
    private func phase(
        _ name: String, rule: String, declines: (a: Double, b: Double), payer: BenchRoutingPayer, count: Int
    ) async -> BenchRoutingReport.Phase {
        BenchProgress.write("phase \(name): \(count) payments, \(rule)\n")
        let payments = await payer.pay(references(name, 0..<count), concurrency: settings.concurrency)
        return summary(name, rule: rule, declines: declines, payments: payments)
    }

    /// Sends payments a window at a time until A's share over the last `window` payments reaches
    /// ``recoveredShare``, or `recoveryLimit` payments were sent.
    private func recovery(declines: (a: Double, b: Double), payer: BenchRoutingPayer) async -> BenchRoutingReport.Phase
    {
        BenchProgress.write("phase recovery: at most \(settings.recoveryLimit) payments until A's share returns\n")
        var payments: [BenchRoutingPayment] = []
        var recoveredAfter: Int?
        while recoveredAfter == nil && payments.count < settings.recoveryLimit {
            let next = payments.count..<min(payments.count + settings.window, settings.recoveryLimit)
            payments += await payer.pay(references("recovery", next), concurrency: settings.concurrency)
            recoveredAfter = Self.firstReturn(payments, window: settings.window)
        }
        var phase = summary("recovery", rule: "adaptive A, B", declines: declines, payments: payments)
        phase.recoveredAfter = recoveredAfter
        return phase
    }

    /// The number of payments after which A's share over the last `window` payments first reached
    /// ``recoveredShare`` (nil: never).
    static func firstReturn(_ payments: [BenchRoutingPayment], window: Int) -> Int? {
        guard payments.count >= window else { return nil }
        var toA = payments.prefix(window).filter { $0.account == .a }.count
        if Double(toA) >= recoveredShare * Double(window) { return window }
        for end in window..<payments.count {
            toA += (payments[end].account == .a ? 1 : 0) - (payments[end - window].account == .a ? 1 : 0)
            if Double(toA) >= recoveredShare * Double(window) { return end + 1 }
        }
        return nil
    }

    private func summary(
        _ name: String, rule: String, declines: (a: Double, b: Double), payments: [BenchRoutingPayment]
    ) -> BenchRoutingReport.Phase {
        BenchRoutingReport.Phase(
            name: name, rule: rule, declineA: declines.a, declineB: declines.b,
            overall: BenchRoutingReport.window(payments, first: 1),
            windows: BenchRoutingReport.windows(payments, size: settings.window),
            lastRanking: payments.last?.ranking)
    }

    /// Merchant references, the same in every run with the same seed (so are the sandbox's declines).
    func references(_ phase: String, _ range: Range<Int>) -> [String] {
        range.map { "routing-\(settings.seed)-\(phase)-\($0)" }
    }

    // MARK: Admin and sandbox calls

    func admin(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        let answer = await http.send(
            method, serverURL + path, headers: [("Authorization", "Bearer \(operatorToken)")],
            json: body.map(BenchHTTP.json))
        guard (200..<300).contains(answer.status) else {
            throw BenchFailure(
                "\(method.rawValue) \(path): HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return BenchHTTP.object(answer.body)
    }

    /// Sets the account's EUR fee model; fails when the server does not keep it.
    private func setFees(_ tenant: String, _ account: String, fixed: Int, basisPoints: Int) async throws {
        let updated = try await admin(
            .PATCH, "/admin/v1/tenants/\(tenant)/provider-accounts/\(account)",
            ["fees": ["EUR": ["fixed": fixed, "basis_points": basisPoints]]])
        guard (updated["fees"] as? [String: Any])?["EUR"] != nil else {
            throw BenchFailure("the updated account has no fees")
        }
    }

    /// The strategy of the first rule of a routing configuration the server answered.
    static func strategy(of routing: [String: Any]) -> String? {
        ((routing["rules"] as? [[String: Any]])?.first)?["strategy"] as? String
    }

    /// Replaces `merchant`'s decline fault by one declining `share` of its payments (none when nil).
    func setDecline(_ merchant: String, _ share: Double?) async throws {
        let faults = sandbox.url + "/_sandbox/worldline-direct/faults"
        let query = merchant.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? merchant
        let cleared = await http.send(.DELETE, faults + "?merchant=" + query)
        guard cleared.status == 204 else {
            throw BenchFailure("the sandbox did not clear faults (HTTP \(cleared.status))")
        }
        guard let share else { return }
        let added = await http.send(
            .POST, faults,
            json: BenchHTTP.json([
                "kind": "decline", "merchant": merchant, "probability": share, "seed": settings.seed,
            ]))
        guard added.status == 200 else {
            throw BenchFailure("the sandbox refused the decline fault (HTTP \(added.status)); is it up to date?")
        }
    }
}
