import Foundation
import NIOHTTP1
import SwitchyardCore
import Testing

@testable import SwitchyardHTTP

/// No trap reachable from input: generated and mutated bodies for every merchant and admin decoder either
/// decode (and validate) or fail with a 4xx `APIError`/`CoreError`; never a crash, never another error.
/// Runs a fixed seed and one random seed (printed on failure), each for a bounded number of inputs.
@Suite(.serialized) struct GeneratedInputTests {
    typealias Node = InputFuzzer.Node

    /// A body template and what the server does with such a body before any I/O.
    struct Target: Sendable {
        var name: String
        var template: @Sendable () -> Node
        var handle: @Sendable (Data) throws -> Void
    }

    static let account = UUID().uuidString.lowercased()

    static let targets: [Target] = [
        Target(
            name: "create payment",
            template: {
                .object([
                    ("amount", .literal("1234")), ("currency", .string("USD")), ("country", .string("US")),
                    ("method", .string("alipay")), ("reference", .string("order-1")),
                    ("capture_mode", .string("manual")), ("customer", .string("alice")),
                    ("return_url", .string("https://shop.example/back")),
                    ("payment_data", .object([("token", .string("t")), ("n", .literal("1"))])),
                    ("save_payment_method", .literal("true")),
                ])
            },
            handle: { _ = try PaymentsController.newPayment(JSONBody($0)) }),
        Target(
            name: "refund or capture",
            template: { .object([("amount", .literal("500")), ("reason", .string("damaged"))]) },
            handle: { _ = try JSONIO.decode(PaymentsController.AmountBody.self, from: $0) }),
        Target(
            name: "complete",
            template: { .object([("payment_data", .object([("encrypted_customer_input", .string("x"))]))]) },
            handle: { _ = try JSONIO.decode(PaymentsController.CompleteBody.self, from: $0) }),
        Target(
            name: "routing",
            template: {
                .object([
                    (
                        "rules",
                        .array([
                            .object([
                                ("name", .string("main")),
                                (
                                    "match",
                                    .object([
                                        ("countries", .array([.string("US")])),
                                        ("currencies", .array([.string("USD")])),
                                        ("methods", .array([.string("alipay")])), ("min_amount", .literal("1")),
                                        ("max_amount", .literal("100000")),
                                    ])
                                ),
                                ("accounts", .array([.string(account), .string(UUID().uuidString)])),
                                ("weights", .array([.literal("70"), .literal("30")])),
                            ])
                        ])
                    ), ("version", .literal("1")),
                ])
            },
            handle: { data in
                let body = try JSONIO.decode(AdminBodies.Routing.self, from: data)
                let issues = RoutingValidator.validate(RoutingController.rules(body), accounts: [:])
                _ = issues.filter { $0.severity == .error }
            }),
        Target(
            name: "simulate",
            template: {
                .object([
                    ("amount", .literal("1234")), ("currency", .string("USD")), ("country", .string("US")),
                    ("method", .string("alipay")), ("reference", .string("r")),
                ])
            },
            handle: { _ = try RoutingController.simulatedPayment(JSONBody($0)) }),
        Target(
            name: "payment options",
            template: {
                .object([
                    ("amount", .literal("1234")), ("currency", .string("USD")), ("country", .string("US")),
                    ("customer", .string("alice")),
                ])
            },
            handle: { _ = try PaymentOptionsController.query(JSONBody($0)) }),
        Target(
            name: "webhook endpoint",
            template: {
                .object([
                    ("url", .string("https://shop.example/hooks")),
                    ("event_types", .array([.string("payment.succeeded"), .string("refund.*")])),
                    ("description", .string("main")),
                ])
            },
            handle: { data in
                let body = try JSONIO.decode(WebhooksController.EndpointBody.self, from: data)
                try WebhookEndpoint.validate(url: body.url, eventTypes: body.eventTypes, requireHTTPS: true)
            }),
        Target(
            name: "tenant",
            template: { .object([("name", .string("Shop"))]) },
            handle: { _ = try JSONIO.decode(AdminBodies.CreateTenant.self, from: $0) }),
        Target(
            name: "api key",
            template: {
                .object([
                    ("name", .string("k")), ("scopes", .array([.string("payments"), .string("admin")])),
                    ("expires_at", .string("2030-01-01T00:00:00Z")),
                ])
            },
            handle: { _ = try JSONIO.decode(AdminBodies.CreateKey.self, from: $0) }),
        Target(
            name: "api key rotation",
            template: {
                .object([("grace_seconds", .literal("3600")), ("expires_at", .string("2030-01-01T00:00:00Z"))])
            },
            handle: { _ = try JSONIO.decode(AdminBodies.RotateKey.self, from: $0) }),
        Target(
            name: "provider account",
            template: {
                .object([
                    ("plugin", .string("citcon")), ("name", .string("c")), ("environment", .string("sandbox")),
                    ("base_url", .string("https://api.example")),
                    ("credentials", .object([("private_key", .string("k"))])),
                    ("options", .object([("o", .string("v"))])), ("enabled", .literal("true")),
                ])
            },
            handle: {
                _ = try JSONIO.decode(AdminBodies.CreateAccount.self, from: $0)
                _ = try JSONIO.decode(AdminBodies.UpdateAccount.self, from: $0)
            }),
        Target(
            name: "tenant policy",
            template: {
                .object([
                    ("attempt_limit", .literal("2")), ("time_budget_ms", .literal("5000")),
                    ("retryable_declines", .literal("false")), ("breaker_failure_threshold", .literal("2")),
                    ("breaker_cool_down_ms", .literal("60000")), ("review_after_ms", .literal("60000")),
                ])
            },
            handle: { data in
                let policy = try JSONIO.decode(TenantPolicy.self, from: data)
                _ = policy.loosening(PlatformPolicy())
                _ = policy.applied(to: PlatformPolicy())
            }),
        Target(
            name: "vaulting session",
            template: {
                .object([
                    ("provider_account", .string(account)), ("return_url", .string("https://shop.example/v")),
                    ("country", .string("SG")),
                ])
            },
            handle: { data in
                let body = try JSONIO.decode(CustomersController.VaultingBody.self, from: data)
                if let url = body.returnURL { try NewPayment.validateReturnURL(url) }
            }),
        Target(
            name: "webhook replay",
            template: { .object([("endpoint", .string("we_1"))]) },
            handle: { _ = try JSONIO.decode(WebhooksController.ReplayBody.self, from: $0) }),
    ]

    /// What went wrong with one input, if anything: nil when it decoded or was refused with a 4xx.
    static func problem(_ target: Target, _ data: Data) -> String? {
        do {
            try target.handle(data)
            return nil
        } catch let error as APIError {
            return (400..<500).contains(error.status.code) ? nil : "APIError \(error.status.code) \(error.code)"
        } catch let error as CoreError {
            let status = Int(error.code.httpStatus.code)
            return (400..<500).contains(status) ? nil : "CoreError \(status) \(error.code)"
        } catch {
            return "unexpected \(type(of: error)): \(error)"
        }
    }

    /// Runs `count` inputs per target from `seed`; returns the failures with the input that caused them,
    /// and a failure for a target whose inputs were all accepted or all refused (the generator would then
    /// be testing nothing).
    static func run(seed: UInt64, count: Int) -> [String] {
        var fuzzer = InputFuzzer(seed: seed)
        var failures: [String] = []
        for target in targets {
            var accepted = 0
            for index in 0..<count {
                let node = fuzzer.mutate(target.template(), rounds: index % 3)
                let data = fuzzer.bytes(node)
                if (try? target.handle(data)) != nil { accepted += 1 }
                if let problem = problem(target, data) {
                    failures.append(
                        "seed \(seed), \(target.name) #\(index): \(problem) for "
                            + String(decoding: data.prefix(300), as: UTF8.self))
                }
            }
            if accepted == 0 || accepted == count {
                failures.append("seed \(seed), \(target.name): \(accepted) of \(count) inputs accepted")
            }
        }
        return failures
    }

    @Test func fixedSeedInputsNeverTrapOrFailOtherThanWith4xx() {
        let failures = Self.run(seed: 13, count: 1_000)
        #expect(failures.isEmpty, "\(failures.count) failures; first: \(failures.prefix(3))")
    }

    @Test func randomSeedInputsNeverTrapOrFailOtherThanWith4xx() {
        let seed = UInt64.random(in: 0...UInt64.max)
        let failures = Self.run(seed: seed, count: 200)
        #expect(failures.isEmpty, "seed \(seed) (rerun with InputFuzzer(seed: \(seed))): \(failures.prefix(3))")
    }

    @Test func absurdPoliciesAreRefusedNotTrapped() {
        var fuzzer = InputFuzzer(seed: 7)
        let sections: [(String, [String])] = [
            ("failover", ["attempt_limit", "time_budget_ms"]), ("lifetimes", ["token_refresh_margin_seconds"]),
            ("limits", ["max_body_bytes", "provider_timeout_ms"]),
            ("breaker", ["failure_threshold", "window_ms", "cool_down_ms"]),
            ("janitor", ["then_every_ms", "horizon_ms", "poll_ms", "batch_size"]),
            ("webhooks", ["timeout_ms", "lease_ms", "poll_ms", "batch_size"]),
        ]
        for _ in 0..<2_000 {
            let (section, keys) = fuzzer.pick(sections)
            var members: [(String, Node)] = [(fuzzer.pick(keys), .literal(fuzzer.pick(InputFuzzer.numbers)))]
            if fuzzer.chance(30) {
                members.append((section == "janitor" ? "schedule_ms" : "retry_schedule_ms", fuzzer.value()))
            }
            let text = Node.object([(section, .object(members))]).text
            guard let policy = try? JSONDecoder().decode(PlatformPolicy.self, from: Data(text.utf8)) else { continue }
            if policy.problem() == nil {
                // Accepted values must be usable: the conversions the server makes cannot overflow.
                _ = Duration.milliseconds(policy.limits.providerTimeoutMs) + .seconds(5)
                _ = policy.janitor.nextSync(after: 3, unknownSince: Date(), now: Date())
                _ = policy.webhooks.retryAt(afterAttempts: 1, now: Date())
                #expect(policy.limits.providerTimeoutMs <= PlatformPolicy.maximumExchangeMs, "\(text)")
            }
        }
    }

    /// A few hundred generated requests against a running server: none may be answered with a 5xx.
    @Test func generatedRequestsNeverGetA5xx() async throws {
        try await TestStack.with { stack in
            let tenant = try await stack.send(
                .POST, "/admin/v1/tenants", token: stack.operatorToken, json: ["name": "F"])
            let tenantId = try #require(tenant.json["id"] as? String)
            let key = try await stack.send(
                .POST, "/admin/v1/tenants/\(tenantId)/api-keys", token: stack.operatorToken,
                json: ["scopes": ["payments", "admin"]])
            let apiKey = try #require(key.json["secret"] as? String)
            let seed = UInt64.random(in: 0...UInt64.max)
            var fuzzer = InputFuzzer(seed: seed)
            let targets = Self.targets
            // Routes whose bodies are decoded; a tenant without routing never reaches a provider.
            let routes: [(HTTPMethod, String, String, Bool)] = [
                (.POST, "/v1/payments", "create payment", false),
                (.POST, "/v1/payments/pay_unknown/refunds", "refund or capture", false),
                (.POST, "/v1/payments/pay_unknown/capture", "refund or capture", false),
                (.PUT, "/v1/routing", "routing", false), (.POST, "/v1/routing/simulate", "simulate", false),
                (.POST, "/v1/payment-options", "payment options", false),
                (.POST, "/v1/webhook-endpoints", "webhook endpoint", false),
                (.POST, "/admin/v1/tenants", "tenant", true),
                (.POST, "/admin/v1/tenants/\(tenantId)/api-keys", "api key", true),
                (.PUT, "/admin/v1/tenants/\(tenantId)/policy", "tenant policy", true),
                (.POST, "/v1/customers/alice/vaulting-sessions", "vaulting session", false),
            ]
            var failures: [String] = []
            for index in 0..<300 {
                let (method, path, name, asOperator) = fuzzer.pick(routes)
                let target = try #require(targets.first { $0.name == name })
                let data = fuzzer.bytes(fuzzer.mutate(target.template(), rounds: index % 4))
                var query = ""
                if fuzzer.chance(10) { query = "?reference=" + fuzzer.pick(["%00", "a", "%FF", "%", "😀"]) }
                let reply = try await stack.send(
                    method, path + query, token: asOperator ? stack.operatorToken : apiKey, raw: data,
                    headers: ["Content-Type": "application/json", "Idempotency-Key": "gen-\(index)"])
                if reply.status >= 500 {
                    failures.append(
                        "\(method) \(path): \(reply.status) \(String(decoding: reply.body, as: UTF8.self)) for "
                            + String(decoding: data.prefix(200), as: UTF8.self))
                }
            }
            let lists = [
                "/v1/payments?reference=%00", "/v1/payments?limit=99999999999999999999", "/v1/events?limit=-1",
            ]
            for path in lists where try await stack.send(.GET, path, token: apiKey).status >= 500 {
                failures.append("GET \(path)")
            }
            #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(3))")
            #expect(try await stack.send(.GET, "/v1/routing", token: apiKey).status == 200)
        }
    }
}
