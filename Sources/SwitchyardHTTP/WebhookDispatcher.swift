import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SwitchyardCore
import SwitchyardStore

/// Delivers the outbox: claims due deliveries (shared safely by every replica's worker), posts each
/// event signed to its endpoint, and records the attempt. A 2xx ends the delivery; anything else is
/// retried on the policy's schedule and then dead-lettered.
public final class WebhookDispatcher: Sendable {
    let store: PostgresStore
    let policy: PolicyCenter
    let client: HTTPClient
    /// Names this process in the attempts it records.
    public let worker: String
    let clock: @Sendable () -> Date
    let logger: Logger

    /// Creates a dispatcher with its own HTTP client (no redirects followed); call ``shutdown()`` when done.
    public init(
        store: PostgresStore, policy: PolicyCenter, worker: String, clock: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5), read: nil)
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.store = store
        self.policy = policy
        self.worker = worker
        self.clock = clock
        self.logger = logger
    }

    /// Sends the deliveries due now (one claimed batch); returns how many were attempted.
    @discardableResult
    public func runOnce() async -> Int {
        let settings = policy.platform.webhooks
        let now = clock()
        let claims: [ClaimedDelivery]
        do {
            claims = try await store.claimWebhookDeliveries(
                now: now, leaseUntil: now.addingTimeInterval(Double(settings.leaseMs) / 1000),
                limit: settings.batchSize)
        } catch {
            if !Task.isCancelled { logger.error("webhook claim failed", metadata: ["error": "\(error)"]) }
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for claim in claims { group.addTask { await self.deliver(claim, settings: settings) } }
        }
        return claims.count
    }

    /// Runs until the calling task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            let busy = await runOnce()
            if busy == 0 { try? await Task.sleep(for: .milliseconds(policy.platform.webhooks.pollMs)) }
        }
    }

    /// Releases the HTTP client.
    public func shutdown() async {
        try? await client.shutdown()
    }

    private func deliver(_ claim: ClaimedDelivery, settings: PlatformPolicy.Webhooks) async {
        let startedAt = clock()
        let timestamp = Int(startedAt.timeIntervalSince1970)
        var request = HTTPClientRequest(url: claim.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Switchyard-Webhooks/1")
        request.headers.add(name: "Switchyard-Event-Id", value: claim.eventId)
        request.headers.add(name: "Switchyard-Event-Type", value: claim.eventType)
        request.headers.add(name: "Switchyard-Delivery-Id", value: claim.id)
        request.headers.add(name: "Switchyard-Attempt", value: "\(claim.attemptNumber)")
        request.headers.add(
            name: WebhookSignature.header,
            value: WebhookSignature.sign(secret: claim.secret, timestamp: timestamp, body: claim.payload))
        request.body = .bytes(ByteBuffer(bytes: claim.payload))
        let began = ContinuousClock.now
        var statusCode: Int?
        var failure: String?
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(settings.timeoutMs)))
            statusCode = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if !(200..<300).contains(Int(response.status.code)) {
                failure = "endpoint answered \(response.status.code)"
            }
        } catch {
            failure = Self.describe(error)
        }
        let elapsed = ContinuousClock.now - began
        let latencyMs = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let attempt = WebhookAttempt(
            number: claim.attemptNumber, startedAt: startedAt, statusCode: statusCode, latencyMs: latencyMs,
            error: failure, worker: worker)
        let retryAt = attempt.succeeded ? nil : settings.retryAt(afterAttempts: claim.attemptNumber, now: clock())
        let metadata: Logger.Metadata = [
            "tenant.id": "\(claim.tenantId)", "webhook.event": "\(claim.eventId)",
            "webhook.endpoint": "\(claim.endpointId)", "webhook.attempt": "\(claim.attemptNumber)",
            "webhook.status": "\(statusCode.map(String.init) ?? "none")", "webhook.latency_ms": "\(latencyMs)",
        ]
        if attempt.succeeded {
            logger.debug("webhook delivered", metadata: metadata)
        } else if retryAt == nil {
            logger.warning("webhook dead-lettered", metadata: metadata)
        } else {
            logger.info("webhook attempt failed", metadata: metadata)
        }
        do {
            try await store.recordWebhookAttempt(claim, attempt: attempt, retryAt: retryAt)
        } catch {
            logger.error("webhook attempt not recorded", metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
    }

    /// A short reason for a failed exchange, never carrying the URL's query or any header.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            return "timed out"
        case let error as HTTPClientError where error == .connectTimeout:
            return "connect timed out"
        case is HTTPClientError:
            return "http error"
        default:
            let text = "\(error)"
            if text.lowercased().contains("refused") { return "connection refused" }
            return "connection failed"
        }
    }
}
