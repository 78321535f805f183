import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ProviderSandbox
import TestWaiting
import Testing

/// SIGTERM drains a server: the listener closes, the payments in flight finish and are answered, and
/// the database is left with every payment in a state the janitor can work from.
@Suite(.serialized)
struct GracefulShutdownTests {
    static let payments = 50
    /// Each Citcon charge is held this long by the sandbox, so all payments are in flight at the signal.
    static let chargeLatencyMs = 3_000
    static let providerTimeoutMs = 10_000
    static let policy = """
        {"plugins": {"mode": "development", "allowed": [{"id": "citcon"}, {"id": "antom"}]},
         "limits": {"provider_timeout_ms": \(providerTimeoutMs)},
         "tenants": {"requests_per_second": 1000, "burst": 1000},
         "server": {"max_connections_per_address": 1000}}
        """

    /// What one client saw.
    enum Answer: Sendable {
        case answered(status: Int, id: String?)
        case connectionError(String)
    }

    @Test(.timeLimit(.minutes(10)))
    func sigtermDuringFiftyPaymentsAnswersThemAndLeavesEveryPaymentConsistent() async throws {
        let platform = try await ChaosPlatform.start(replicas: 1, citconChargeLifetime: 600, policy: Self.policy)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await run(platform, client)
        } catch {
            try? await client.shutdown()
            await platform.stop()
            throw error
        }
        try await client.shutdown()
        await platform.stop(keepLogs: false)
    }

    private func run(_ platform: ChaosPlatform, _ client: HTTPClient) async throws {
        let shop = try await platform.openShop()
        let slow = SandboxFault(
            kind: .latency, method: "POST", pathPrefix: "/v1/charges", merchant: TestStack.citconMerchant.id,
            latencyMs: Self.chargeLatencyMs)
        let rule = try await platform.send(
            .POST, platform.sandboxURL + "/_sandbox/citcon/faults", body: try JSONEncoder().encode([slow]))
        try #require(rule.status == 200, "\(rule.text)")

        let base = platform.replicaURL(0)
        let requests = Task {
            await withTaskGroup(of: Answer.self) { group in
                for index in 0..<Self.payments {
                    group.addTask { await Self.createPayment(client, base: base, key: shop.apiKey, index: index) }
                }
                return await group.reduce(into: [Answer]()) { $0.append($1) }
            }
        }
        // Every payment is stored before its provider call, which the sandbox then holds: wait until all are.
        var stored = 0
        try await Poll.holds("every payment stored", within: .seconds(60)) {
            stored = (try? await Self.listDrainPayments(platform, base: base, key: shop.apiKey).count) ?? 0
            return stored >= Self.payments
        }
        try #require(stored == Self.payments, "only \(stored) payments were stored before the signal")

        let signalled = Date()
        let status = try await platform.sigterm(0, within: 120)
        let answers = await requests.value
        let drained = Date().timeIntervalSince(signalled)
        print("graceful shutdown: \(Self.payments) payments in flight, exited after \(Int(drained * 1000)) ms")

        // The server drained and exited by itself, well within its bound (provider deadline and margins).
        #expect(status == 0, "exit status \(String(describing: status))")
        #expect(drained < 60, "drain took \(drained) s")
        // Every payment was in flight at the signal: each client got its answer, none a dropped connection.
        var answeredIDs: Set<String> = []
        for answer in answers {
            switch answer {
            case .answered(let code, let id):
                #expect(code == 201, "status \(code)")
                if let id { answeredIDs.insert(id) }
            case .connectionError(let error):
                Issue.record("a payment in flight lost its connection: \(error)")
            }
        }
        #expect(answers.count == Self.payments)

        // Back up, the database shows every payment final or waiting for the app, and none processing
        // without a recorded attempt.
        try await platform.restart(0, generation: 1)
        let payments = try await Self.listDrainPayments(platform, base: base, key: shop.apiKey)
        #expect(payments.count == Self.payments)
        for payment in payments {
            let id = payment["id"] as? String ?? "-"
            let status = payment["status"] as? String ?? "-"
            let attempts = payment["attempts"] as? [[String: Any]] ?? []
            let settled = ["requires_action", "authorized", "succeeded", "failed", "canceled"].contains(status)
            #expect(settled || !attempts.isEmpty, "payment \(id) is \(status) without an attempt")
            #expect(!attempts.isEmpty || status == "failed", "payment \(id) has no attempt recorded")
            #expect(answeredIDs.contains(id), "payment \(id) was never answered")
        }
    }

    /// Creates payment `index` (a Citcon alipay payment in dollars) and reports what the client saw.
    static func createPayment(_ client: HTTPClient, base: String, key: String, index: Int) async -> Answer {
        var request = HTTPClientRequest(url: base + "/v1/payments")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        request.headers.add(name: "Idempotency-Key", value: "drain-\(index)")
        request.headers.add(name: "Content-Type", value: "application/json")
        let body =
            #"{"amount": \#(1_100 + index), "currency": "USD", "country": "US", "method": "alipay", "reference": "drain-\#(index)"}"#
        request.body = .bytes(ByteBuffer(string: body))
        do {
            let response = try await client.execute(request, timeout: .seconds(90))
            let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            return .answered(status: Int(response.status.code), id: json?["id"] as? String)
        } catch {
            return .connectionError("\(error)")
        }
    }

    /// The payments this test created, as the API lists them (with their attempts).
    static func listDrainPayments(_ platform: ChaosPlatform, base: String, key: String) async throws
        -> [[String: Any]]
    {
        let reply = try await platform.send(.GET, base + "/v1/payments?limit=100&" + PaymentLists.expandAll, token: key)
        guard reply.status == 200 else { throw TestFailure("list: \(reply.status) \(reply.text)") }
        let data = reply.json["data"] as? [[String: Any]] ?? []
        return data.filter { ($0["reference"] as? String)?.hasPrefix("drain-") == true }
    }
}
