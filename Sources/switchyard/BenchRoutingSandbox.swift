import Foundation
import Logging
import ProviderSandbox
import SwitchyardBench
import SwitchyardCommands
import SwitchyardCrypto

/// The sandbox of the routing experiment: its URL and the two Worldline Direct merchants A and B, either
/// given (a running `switchyard sandbox`) or served by a sandbox inside this process.
struct BenchRoutingSandbox: Sendable {
    var url: String
    var merchantA: WorldlineDirectSandboxMerchant
    var merchantB: WorldlineDirectSandboxMerchant
    /// The task serving the in-process sandbox, if this process runs it.
    var task: Task<Void, Never>?

    /// A merchant from `merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret`.
    static func merchant(_ spec: String) -> WorldlineDirectSandboxMerchant? {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, !parts.contains(where: \.isEmpty) else { return nil }
        return WorldlineDirectSandboxMerchant(
            merchantId: parts[0], apiKeyId: parts[1], secretApiKey: parts[2], webhookKeyId: parts[3],
            webhookSecret: parts[4])
    }

    /// A fresh merchant with random secrets.
    static func freshMerchant(_ name: String) -> WorldlineDirectSandboxMerchant {
        WorldlineDirectSandboxMerchant(
            merchantId: "bench-\(name)", apiKeyId: "bench-key-\(name)", secretApiKey: SecureRandom.token(bytes: 24),
            webhookKeyId: "bench-webhook-\(name)", webhookSecret: SecureRandom.token(bytes: 24))
    }

    /// The given sandbox, or a new one on a free loopback port serving two fresh merchants.
    static func start(
        url: String?, merchantA: WorldlineDirectSandboxMerchant?, merchantB: WorldlineDirectSandboxMerchant?
    ) async throws -> BenchRoutingSandbox {
        if let url, let merchantA, let merchantB {
            return BenchRoutingSandbox(url: url, merchantA: merchantA, merchantB: merchantB)
        }
        let a = freshMerchant("a")
        let b = freshMerchant("b")
        var configuration = SandboxConfiguration()
        configuration.worldlineDirect = WorldlineDirectSandboxConfiguration(merchants: [a, b])
        let server = SandboxServer(
            configuration: configuration, logger: Logger(label: "sandbox", factory: { _ in SwiftLogNoOpLogHandler() }))
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try? await server.run(host: "127.0.0.1", port: 0) { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            task.cancel()
            throw BenchFailure("the in-process sandbox did not start")
        }
        return BenchRoutingSandbox(url: "http://127.0.0.1:\(port)", merchantA: a, merchantB: b, task: task)
    }

    /// Stops the in-process sandbox.
    func stop() {
        task?.cancel()
    }

    /// The body of a Worldline Direct provider account on `merchant`.
    func account(name: String, merchant: WorldlineDirectSandboxMerchant) -> [String: Any] {
        [
            "name": name, "plugin": "worldline-direct", "base_url": url + "/worldline-direct",
            "environment": "sandbox",
            "credentials": [
                "merchant_id": merchant.merchantId, "api_key_id": merchant.apiKeyId,
                "secret_api_key": merchant.secretApiKey, "webhook_key_id": merchant.webhookKeyId,
                "webhook_secret": merchant.webhookSecret,
            ],
        ]
    }
}
