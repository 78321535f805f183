import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SwitchyardCore
import SwitchyardHTTP
import SwitchyardStore

/// Delivers the outbox: claims due deliveries (shared safely by every replica's worker), posts each
/// event signed to its endpoint, and records the attempt. A 2xx ends the delivery; anything else is
/// retried on the policy's schedule and then dead-lettered.
///
/// Delivery is continuous: up to `batch_size` deliveries are in flight, and a new one is claimed as soon
/// as one ends, so a slow endpoint holds only its own slots. Each endpoint has at most
/// `max_in_flight_per_endpoint` deliveries in flight over all workers, and each tenant at most
/// `max_in_flight_per_tenant`; the others wait their turn.
public final class WebhookDispatcher: Sendable {
    let store: PostgresStore
    let policy: PolicyCenter
    let client: HTTPClient
    let resolver: any HostResolver
    /// Names this process in the attempts it records (kept for operators; tenants never see it).
    public let worker: String
    let clock: @Sendable () -> Date
    let logger: Logger
    /// A database outage under way: logged once, and claims wait longer while it lasts.
    let outage: DatabaseOutage

    /// Creates a dispatcher with its own HTTP client (no redirects followed); call ``shutdown()`` when done.
    public init(
        store: PostgresStore, policy: PolicyCenter, worker: String, clock: @escaping @Sendable () -> Date,
        logger: Logger, resolver: any HostResolver = SystemHostResolver()
    ) {
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.configuration())
        self.store = store
        self.policy = policy
        self.resolver = resolver
        self.worker = worker
        self.clock = clock
        self.logger = logger
        outage = DatabaseOutage(worker: "webhooks", logger: logger)
    }

    /// The HTTP client settings of every delivery: no redirects, no retried connection, and `dnsOverride`
    /// pinning names to the addresses that were checked.
    static func configuration(dnsOverride: [String: String] = [:]) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5), read: nil)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.dnsOverride = dnsOverride
        return configuration
    }

    /// Claims what is due now, up to `limit` deliveries; nil when the claim failed.
    func claim(limit: Int, settings: PlatformPolicy.Webhooks) async -> [ClaimedDelivery]? {
        let now = clock()
        do {
            let claims = try await store.webhooks.claimWebhookDeliveries(
                now: now, leaseUntil: now.addingTimeInterval(Double(settings.leaseMs) / 1000), limit: limit,
                perEndpoint: settings.maxInFlightPerEndpoint, perTenant: settings.maxInFlightPerTenant)
            outage.succeeded()
            return claims
        } catch {
            if !Task.isCancelled && !outage.failed(error) {
                logger.error("webhook claim failed", metadata: ["error": "\(error)"])
            }
            return nil
        }
    }

    /// Sends the deliveries due now (one claim) and waits for them; returns how many were attempted.
    @discardableResult
    public func runOnce() async -> Int {
        let settings = policy.platform.webhooks
        let claims = await claim(limit: settings.batchSize, settings: settings) ?? []
        await withTaskGroup(of: Void.self) { group in
            for claim in claims { group.addTask { await self.deliver(claim, settings: settings) } }
        }
        return claims.count
    }

    /// What ended in the delivery loop's task group.
    private enum Finished: Sendable {
        case delivery
        case tick
    }

    /// Runs until the calling task is cancelled or `stopping` says so: keeps up to `batch_size` deliveries
    /// in flight, claiming more whenever one ends and at least every `poll_ms`. Once `stopping` holds (a
    /// graceful shutdown), nothing more is claimed and the deliveries under way finish before it returns;
    /// cancellation still cuts them short (their leases make them due again).
    public func run(stopping: @escaping @Sendable () -> Bool = { false }) async {
        await withTaskGroup(of: Finished.self) { group in
            var inFlight = 0
            var ticking = false
            while !Task.isCancelled && !stopping() {
                let settings = policy.platform.webhooks
                let free = settings.batchSize - inFlight
                if free > 0, let claims = await claim(limit: free, settings: settings) {
                    for claim in claims {
                        group.addTask {
                            await self.deliver(claim, settings: settings)
                            return .delivery
                        }
                    }
                    inFlight += claims.count
                    // More may be due at once: claim again before waiting.
                    if claims.count == free, !claims.isEmpty { continue }
                }
                if inFlight < settings.batchSize, !ticking {
                    ticking = true
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(self.outage.pauseMs(normal: settings.pollMs)))
                        return .tick
                    }
                }
                switch await group.next() {
                case .delivery: inFlight -= 1
                case .tick: ticking = false
                case nil: break
                }
            }
            // Stopping: the deliveries under way finish (each bounded by the webhook timeout).
            while inFlight > 0, !Task.isCancelled {
                switch await group.next() {
                case .delivery: inFlight -= 1
                case .tick: continue
                case nil: inFlight = 0
                }
            }
            group.cancelAll()
        }
    }

    /// Releases the HTTP client.
    public func shutdown() async {
        try? await client.shutdown()
    }
}
