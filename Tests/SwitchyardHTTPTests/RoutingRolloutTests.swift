import Foundation
import SwitchyardCore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// Guarded rollouts over the API: a draft routing takes its share of the payments by a stable hash of the
/// routing key, the janitor rolls a worse draft back or promotes one, announcing why, and a rollout can be
/// stopped. The c-echo plugin answers synchronously (2xx authorised, 4xx declined), so each account's
/// answers are whatever its receiver is told to answer.
@Suite(.serialized)
struct RoutingRolloutTests {
    struct Shop {
        var merchant: TestStack.Merchant
        /// The live rule's account and the draft's.
        var live: String
        var draft: String
    }

    static func fastJanitor(_ policy: inout PlatformPolicy) {
        policy.janitor.pollMs = 100
        policy.tenants = .init(requestsPerSecond: 1_000_000, burst: 1_000_000, maxConcurrentRequests: 10_000)
    }

    /// Runs `body` with a stack holding a merchant whose live rule sends EUR cards to an account answering
    /// `liveAnswer`, and a second account answering `draftAnswer` for drafts to use.
    static func with(
        liveAnswer: Int, draftAnswer: Int, clock: TestClock = TestClock(),
        _ body: @Sendable @escaping (TestStack, Shop) async throws -> Void
    ) async throws {
        let plugin = try FixturePlugins.build("c_echo.c", in: "Plugins/Examples/c-echo")
        try await TestStack.with(
            extraPlugins: [(name: "libCEchoPlugin.so", path: plugin)], policy: fastJanitor, clock: clock
        ) { stack in
            try await WebhookReceiver.with { live in
                try await WebhookReceiver.with { draft in
                    live.answer([], then: liveAnswer)
                    draft.answer([], then: draftAnswer)
                    func account(_ name: String, _ url: String) -> [String: Any] {
                        [
                            "plugin": "c-echo", "base_url": url, "environment": "sandbox", "name": name,
                            "credentials": ["api_key": "c-echo-key-0123456789"],
                        ]
                    }
                    let merchant = try await stack.merchant(
                        name: "Rollout Shop", account: account("live", live.url),
                        match: ["currencies": ["EUR"], "methods": ["card"]])
                    let draftAccount = try await stack.addAccount(
                        tenantId: merchant.tenantId, account("draft", draft.url))
                    try await body(stack, Shop(merchant: merchant, live: merchant.accountId, draft: draftAccount))
                }
            }
        }
    }

    static func draftRules(_ shop: Shop) -> [[String: Any]] {
        [["name": "cards", "match": ["currencies": ["EUR"], "methods": ["card"]], "accounts": [shop.draft]]]
    }

    static func pay(_ stack: TestStack, _ shop: Shop, reference: String) async throws -> [String: Any] {
        try await stack.createPayment(
            shop.merchant,
            ["amount": 1500, "currency": "EUR", "country": "FR", "method": "card", "reference": reference])
    }

    static func text(_ reply: TestStack.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    /// The tenant's events of `type`, newest first.
    static func events(_ stack: TestStack, _ shop: Shop, type: String) async throws -> [[String: Any]] {
        let listed = try await stack.send(.GET, "/v1/events?type=\(type)", token: shop.merchant.apiKey)
        return listed.json["data"] as? [[String: Any]] ?? []
    }

    /// Polls `GET /v1/routing` until no rollout runs.
    static func waitForEnd(_ stack: TestStack, _ shop: Shop, seconds: Double = 20) async throws -> [String: Any] {
        do {
            return try await Poll.value("the rollout's end", within: .seconds(seconds), every: .milliseconds(100)) {
                let read = try await stack.send(.GET, "/v1/routing", token: shop.merchant.apiKey)
                return read.json["rollout"] == nil ? read.json : nil
            }
        } catch is WaitTimedOut {
            throw TestFailure("the rollout did not end")
        }
    }

    @Test func aDecliningDraftTakesItsShareByKeyAndIsRolledBackWithTheFiguresThatDecided() async throws {
        try await Self.with(liveAnswer: 200, draftAnswer: 402) { stack, shop in
            let key = shop.merchant.apiKey
            let started = try await stack.send(
                .PUT, "/v1/routing", token: key,
                json: [
                    "rules": Self.draftRules(shop),
                    "rollout": ["share": "50%", "guardrail_pp": 3, "min_samples": 10, "max_duration_seconds": 3_600],
                ])
            try #require(started.status == 200, "\(Self.text(started))")
            #expect(started.json["version"] as? Int == 1, "the live version is unchanged")
            let rollout = try #require(started.json["rollout"] as? [String: Any])
            #expect(rollout["status"] as? String == "running")
            #expect(rollout["share_percent"] as? Double == 50)
            #expect(rollout["guardrail_pp"] as? Double == 3)
            #expect(rollout["draft_version"] as? Int == 2)

            let second = try await stack.send(
                .PUT, "/v1/routing", token: key, json: ["rules": Self.draftRules(shop), "rollout": ["share": 0.1]])
            #expect(second.status == 409)
            #expect(second.errorCode == "rollout_running")
            let plain = try await stack.send(.PUT, "/v1/routing", token: key, json: ["rules": Self.draftRules(shop)])
            #expect(plain.status == 409)
            #expect(plain.errorCode == "rollout_running")

            var arms: [String: String] = [:]
            for n in 0..<60 {
                let payment = try await Self.pay(stack, shop, reference: "split-\(n)")
                let routing = try #require(payment["routing"] as? [String: Any])
                // No arm: the janitor rolled the draft back meanwhile.
                guard let arm = routing["arm"] as? String else { break }
                arms["split-\(n)"] = arm
                let account = (payment["attempts"] as? [[String: Any]])?.first?["provider_account"] as? String
                #expect(account == (arm == "draft" ? shop.draft : shop.live))
                #expect(routing["version"] as? Int == (arm == "draft" ? 2 : 1))
                if n == 5 {
                    // Before either arm has the answers a rollback needs: a retry of a payment (same routing
                    // key) stays on its side.
                    for (reference, arm) in arms {
                        let again = try await Self.pay(stack, shop, reference: reference)
                        #expect((again["routing"] as? [String: Any])?["arm"] as? String == arm)
                    }
                }
                if await Self.ended(stack, shop) { break }
            }
            #expect(Set(arms.values) == ["draft", "control"])

            let after = try await Self.waitForEnd(stack, shop)
            #expect(after["version"] as? Int == 1, "a rollback leaves the live routing")
            #expect(Self.accounts(after) == [shop.live])
            let event = try #require(try await Self.events(stack, shop, type: "routing.rollout.rolled_back").first)
            let object = try #require((event["data"] as? [String: Any])?["object"] as? [String: Any])
            #expect(object["status"] as? String == "rolled_back")
            #expect(object["reason"] as? String == "guardrail_breached")
            #expect(object["live_version"] as? Int == 1)
            let control = try #require(object["control"] as? [String: Any])
            let draft = try #require(object["draft"] as? [String: Any])
            #expect((control["samples"] as? Int ?? 0) >= 10)
            #expect((draft["samples"] as? Int ?? 0) >= 10)
            #expect(control["rate"] as? Double == 1)
            #expect(draft["rate"] as? Double == 0)
            let interval = try #require(object["interval"] as? [String: Any])
            #expect((interval["upper_pp"] as? Double ?? 0) < -3)
            #expect(object["guardrail_pp"] as? Double == 3)
            // New payments take the live routing only.
            let later = try await Self.pay(stack, shop, reference: "after-rollback")
            #expect((later["routing"] as? [String: Any])?["arm"] == nil)
            let versions = try await stack.send(.GET, "/v1/routing/versions", token: key)
            #expect((versions.json["data"] as? [[String: Any]])?.compactMap { $0["version"] as? Int } == [2, 1])
        }
    }

    /// The accounts of a routing's first rule, lowercased as account ids are given.
    static func accounts(_ routing: [String: Any]) -> [String]? {
        ((routing["rules"] as? [[String: Any]])?.first?["accounts"] as? [String])?.map { $0.lowercased() }
    }

    static func ended(_ stack: TestStack, _ shop: Shop) async -> Bool {
        let read = try? await stack.send(.GET, "/v1/routing", token: shop.merchant.apiKey)
        return read.map { $0.json["rollout"] == nil } ?? false
    }

    @Test func aDraftNotShownWorseIsPromotedAtItsLongestDuration() async throws {
        let clock = TestClock()
        try await Self.with(liveAnswer: 200, draftAnswer: 200, clock: clock) { stack, shop in
            let key = shop.merchant.apiKey
            let started = try await stack.send(
                .PUT, "/admin/v1/tenants/\(shop.merchant.tenantId)/routing", token: stack.operatorToken,
                json: [
                    "rules": Self.draftRules(shop),
                    "rollout": ["share": 0.3, "guardrail_pp": 2, "min_samples": 1_000, "max_duration_seconds": 600],
                ])
            try #require(started.status == 200, "\(Self.text(started))")
            for n in 0..<12 { _ = try await Self.pay(stack, shop, reference: "good-\(n)") }
            let running = try await stack.send(.GET, "/v1/routing", token: key)
            let figures = try #require(running.json["rollout"] as? [String: Any])
            let answers =
                ((figures["control"] as? [String: Any])?["samples"] as? Int ?? 0)
                + ((figures["draft"] as? [String: Any])?["samples"] as? Int ?? 0)
            #expect(answers == 12, "\(figures)")
            clock.advance(by: 601)
            let after = try await Self.waitForEnd(stack, shop)
            #expect(after["version"] as? Int == 3, "the promoted draft is written as a new live version")
            #expect(Self.accounts(after) == [shop.draft])
            let event = try #require(try await Self.events(stack, shop, type: "routing.rollout.promoted").first)
            let object = (event["data"] as? [String: Any])?["object"] as? [String: Any]
            #expect(object?["reason"] as? String == "max_duration")
            #expect(object?["live_version"] as? Int == 3)
            let payment = try await Self.pay(stack, shop, reference: "after-promotion")
            #expect((payment["attempts"] as? [[String: Any]])?.first?["provider_account"] as? String == shop.draft)
        }
    }

    @Test func aRolloutIsStoppedWithLiveUnchangedAndBadSettingsAreRefused() async throws {
        try await Self.with(liveAnswer: 200, draftAnswer: 200) { stack, shop in
            let key = shop.merchant.apiKey
            for (rollout, param) in [
                (["share": 0.9] as [String: Any], "rollout.share"),
                (["share": "ten"], "rollout.share"),
                (["share": 0.1, "guardrail_pp": 0], "rollout.guardrail_pp"),
                (["share": 0.1, "min_samples": 0], "rollout.min_samples"),
                (["share": 0.1, "max_duration_seconds": 5], "rollout.max_duration_seconds"),
            ] {
                let refused = try await stack.send(
                    .PUT, "/v1/routing", token: key, json: ["rules": Self.draftRules(shop), "rollout": rollout])
                #expect(refused.status == 400, "\(Self.text(refused))")
                #expect(refused.errorCode == "invalid_parameter")
                #expect((refused.json["error"] as? [String: Any])?["param"] as? String == param)
            }
            let missing = try await stack.send(
                .PUT, "/v1/routing", token: key,
                json: ["rules": Self.draftRules(shop), "rollout": [:] as [String: Any]])
            #expect(missing.status == 400, "\(Self.text(missing))")
            let none = try await stack.send(.POST, "/v1/routing/rollout/stop", token: key)
            #expect(none.status == 404)

            let started = try await stack.send(
                .PUT, "/v1/routing", token: key, json: ["rules": Self.draftRules(shop), "rollout": ["share": 0.2]])
            try #require(started.status == 200, "\(Self.text(started))")
            let stopped = try await stack.send(
                .POST, "/admin/v1/tenants/\(shop.merchant.tenantId)/routing/rollout/stop", token: stack.operatorToken)
            #expect(stopped.status == 200, "\(Self.text(stopped))")
            #expect(stopped.json["status"] as? String == "stopped")
            #expect(stopped.json["live_version"] as? Int == 1)
            let read = try await stack.send(.GET, "/v1/routing", token: key)
            #expect(read.json["rollout"] == nil)
            #expect(read.json["version"] as? Int == 1)
            #expect(try await Self.events(stack, shop, type: "routing.rollout.stopped").count == 1)
            let payment = try await Self.pay(stack, shop, reference: "after-stop")
            #expect((payment["attempts"] as? [[String: Any]])?.first?["provider_account"] as? String == shop.live)
            // With none running, a new rollout may start.
            let again = try await stack.send(
                .PUT, "/v1/routing", token: key, json: ["rules": Self.draftRules(shop), "rollout": ["share": 0.2]])
            #expect(again.status == 200, "\(Self.text(again))")
        }
    }
}
