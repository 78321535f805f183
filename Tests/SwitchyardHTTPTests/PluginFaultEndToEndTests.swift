import Foundation
import ProviderSandbox
import SwitchyardCore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// Misbehaving plugins run in worker processes: the server stays up and fast, other plugins keep taking
/// payments, and the affected payment ends in the outcome class the fault allows.
@Suite(.serialized)
struct PluginFaultEndToEndTests {
    /// Short deadlines (the stack's provider timeout, 5 s, + 0.5 s margin + 0.2 s grace), fast restarts
    /// and janitor.
    static func policy(_ policy: inout PlatformPolicy) {
        policy.pluginWorkers.deadlineMarginMs = 500
        policy.pluginWorkers.cancelGraceMs = 200
        policy.pluginWorkers.restartBackoffMs = 50
        policy.janitor.scheduleMs = [300]
        policy.janitor.thenEveryMs = 300
        policy.janitor.pollMs = 100
    }

    /// Installs the fault fixture built with `defines` and waits until the server lists it as loaded
    /// (or refused, when `expectRefusal`).
    static func install(_ stack: TestStack, _ defines: [String]) async throws {
        try FixturePlugins.install(
            try FixturePlugins.build("fault_plugin.c", defines: defines), in: stack.pluginsDirectory, as: "faulty.so")
    }

    static func plugins(_ stack: TestStack) async throws -> [String: Any] {
        try await stack.send(.GET, "/admin/v1/plugins", token: stack.operatorToken).json
    }

    static func waitForPlugins(_ stack: TestStack, until condition: ([String: Any]) -> Bool) async throws
        -> [String: Any]
    {
        var last: [String: Any] = [:]
        // The server's plugin registry, read over HTTP: asked again until it matches.
        guard
            try await Poll.holds(
                "the plugins' state", within: .seconds(15), every: .milliseconds(100),
                {
                    last = try await plugins(stack)
                    return condition(last)
                })
        else { throw TestFailure("plugins did not reach the expected state: \(last)") }
        return last
    }

    static func ids(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// A tenant whose EUR cards go to the faulty plugin.
    static func faultyMerchant(_ stack: TestStack) async throws -> TestStack.Merchant {
        try await stack.merchant(
            name: "Faulty Shop",
            account: [
                "plugin": "faulty", "base_url": stack.sandboxURL + "/faulty", "environment": "sandbox",
                "credentials": [String: String](),
            ],
            match: ["currencies": ["EUR"]])
    }

    /// Waits until the payment with `reference` is stored: it is stored before its provider call, so its
    /// plugin call is then under way.
    static func waitUntilStored(_ stack: TestStack, _ m: TestStack.Merchant, _ reference: String) async throws {
        try await Poll.until("payment \(reference) stored", within: .seconds(10), every: .milliseconds(20)) {
            let listed = try await stack.send(.GET, "/v1/payments?reference=\(reference)", token: m.apiKey).json
            return (listed["data"] as? [[String: Any]])?.isEmpty == false
        }
    }

    static func faultyPayment(_ stack: TestStack, _ m: TestStack.Merchant, _ reference: String) async throws
        -> TestStack.Reply
    {
        try await stack.send(
            .POST, "/v1/payments", token: m.apiKey,
            json: [
                "amount": 1000, "currency": "EUR", "country": "FR", "method": "card", "reference": reference,
                "capture_mode": "manual",
            ])
    }

    /// While a fault is active: `/health` answers within a second and a Citcon payment goes through.
    /// Returns the fastest of three `/health` latencies (one slow answer on a machine busy with other
    /// test suites says nothing; a server whose threads a plugin holds answers all three slowly).
    static func otherPathsWork(_ stack: TestStack, _ citcon: TestStack.Merchant) async throws -> Duration {
        var fastest = Duration.seconds(3600)
        for _ in 0..<3 {
            let started = ContinuousClock.now
            let health = try await stack.send(.GET, "/health")
            fastest = min(fastest, ContinuousClock.now - started)
            #expect(health.status == 200)
        }
        let elapsed = fastest
        #expect(elapsed < .seconds(1), "GET /health took \(elapsed)")
        let payment = try await stack.createPayment(
            citcon,
            [
                "amount": 1234, "currency": "USD", "country": "US", "method": "alipay",
                "reference": "citcon-\(UUID().uuidString.prefix(8))",
            ])
        #expect(payment["status"] as? String == "requires_action", "\(payment)")
        return elapsed
    }

    static func attempts(_ payment: [String: Any]) -> [[String: Any]] {
        payment["attempts"] as? [[String: Any]] ?? []
    }

    @Test func crashInCreateIsRefusedAndTheServerStaysUp() async throws {
        try await TestStack.with(policy: Self.policy) { stack in
            try await Self.install(stack, ["FAULT_CRASH_IN_CREATE"])
            let listed = try await Self.waitForPlugins(stack) { plugins in
                (plugins["refused"] as? [[String: Any]] ?? []).contains {
                    ($0["file"] as? String)?.hasSuffix("faulty.so") == true
                }
            }
            let refusal = try #require((listed["refused"] as? [[String: Any]])?.first)
            #expect(refusal["code"] as? String == "create_failed")
            #expect((refusal["reason"] as? String)?.contains("signal 11") == true)
            #expect(!Self.ids(listed["loaded"]).contains("faulty"))
            let latency = try await Self.otherPathsWork(stack, try await stack.merchant())
            print("crash in create: GET /health took \(latency)")
        }
    }

    @Test func crashAfterSendingIsUnknownResolvedBySyncAndRepeatedCrashesQuarantine() async throws {
        try await TestStack.with(policy: Self.policy) { stack in
            try await Self.install(stack, ["FAULT_CRASH_AFTER_SEND"])
            _ = try await Self.waitForPlugins(stack) { Self.ids($0["loaded"]).contains("faulty") }
            let faulty = try await Self.faultyMerchant(stack)
            let citcon = try await stack.merchant()
            for crash in 1...3 {
                let reply = try await Self.faultyPayment(stack, faulty, "crash-\(crash)")
                try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
                // The worker died after the host sent the request: the provider may have it.
                #expect(reply.json["status"] as? String == "unknown", "crash \(crash): \(reply.json)")
                #expect(Self.attempts(reply.json).map { $0["outcome"] as? String } == ["unknown"])
                let latency = try await Self.otherPathsWork(stack, citcon)
                print("crash \(crash) after send: GET /health took \(latency)")
                let id = try #require(reply.json["id"] as? String)
                if crash < 3 {
                    // The restarted worker answers the janitor's sync: resolved, with one attempt only.
                    let resolved = try await stack.waitForPayment(id, key: faulty.apiKey) {
                        $0["status"] as? String == "authorized"
                    }
                    #expect(Self.attempts(resolved).count == 1)
                    #expect(Self.attempts(resolved).first?["provider_payment_id"] as? String == "fault-1")
                }
            }
            let plugins = try await Self.waitForPlugins(stack) { Self.ids($0["quarantined"]).contains("faulty") }
            #expect(!Self.ids(plugins["loaded"]).contains("faulty"))
            let entry = try #require((plugins["quarantined"] as? [[String: Any]])?.first)
            #expect((entry["reason"] as? String)?.contains("3 worker deaths") == true)
            // Routing no longer offers the quarantined plugin's account: no attempt is made.
            let refused = try await Self.faultyPayment(stack, faulty, "after-quarantine")
            #expect(refused.status == 422 || refused.status == 503, "\(String(decoding: refused.body, as: UTF8.self))")
            _ = try await Self.otherPathsWork(stack, citcon)
        }
    }

    @Test func hangIsUnknownAtTheDeadlineThenResolvedBySync() async throws {
        try await TestStack.with(policy: Self.policy) { stack in
            try await Self.install(stack, ["FAULT_HANG"])
            _ = try await Self.waitForPlugins(stack) { Self.ids($0["loaded"]).contains("faulty") }
            let faulty = try await Self.faultyMerchant(stack)
            let citcon = try await stack.merchant()
            let started = ContinuousClock.now
            let pending = Task { try await Self.faultyPayment(stack, faulty, "hang-1") }
            try await Self.waitUntilStored(stack, faulty, "hang-1")
            let latency = try await Self.otherPathsWork(stack, citcon)
            print("hang: GET /health took \(latency)")
            let reply = try await pending.value
            let answeredAfter = ContinuousClock.now - started
            print("hang: the payment was answered after \(answeredAfter)")
            #expect(answeredAfter < .seconds(30))
            try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
            #expect(reply.json["status"] as? String == "unknown", "\(reply.json)")
            let id = try #require(reply.json["id"] as? String)
            let resolved = try await stack.waitForPayment(id, key: faulty.apiKey) {
                $0["status"] as? String == "authorized"
            }
            #expect(Self.attempts(resolved).count == 1)
        }
    }

    @Test func blockInsideInvokeIsNotSentAtTheDeadlineAndTheServerStaysFast() async throws {
        try await TestStack.with(policy: Self.policy) { stack in
            try await Self.install(stack, ["FAULT_BLOCK", "FAULT_BLOCK_SECONDS=10"])
            _ = try await Self.waitForPlugins(stack) { Self.ids($0["loaded"]).contains("faulty") }
            let faulty = try await Self.faultyMerchant(stack)
            let citcon = try await stack.merchant()
            let blocked = (1...2).map { index in
                Task { try await Self.faultyPayment(stack, faulty, "block-\(index)") }
            }
            for index in 1...2 { try await Self.waitUntilStored(stack, faulty, "block-\(index)") }
            let latency = try await Self.otherPathsWork(stack, citcon)
            print("block in invoke: GET /health took \(latency)")
            for task in blocked {
                let reply = try await task.value
                try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
                // Nothing was sent before the deadline: a clean failure, not an unknown.
                #expect(reply.json["status"] as? String == "failed", "\(reply.json)")
                #expect(Self.attempts(reply.json).map { $0["outcome"] as? String } == ["notSent"])
            }
        }
    }
}
