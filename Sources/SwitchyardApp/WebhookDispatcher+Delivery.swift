import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import SwitchyardCore
import SwitchyardHTTP
import SwitchyardObservability
import SwitchyardStore

extension WebhookDispatcher {
    /// What one exchange came to.
    struct Exchange {
        var statusCode: Int?
        var failure: WebhookFailure?
        /// The address the request went to, for the operator's log only.
        var address: String?
        /// The underlying error, for the operator's log only.
        var detail: String?
    }

    /// Sends one claimed delivery, if its endpoint's address may be reached, and records the attempt.
    func deliver(_ claim: ClaimedDelivery, settings: PlatformPolicy.Webhooks) async {
        let startedAt = clock()
        let began = ContinuousClock.now
        let timeout = Duration.milliseconds(settings.timeoutMs)
        let egress = WebhookEgress(policy: settings, resolver: resolver)
        var exchange: Exchange
        do {
            let route = try await egress.route(claim.url, timeout: timeout)
            let remaining = timeout - (ContinuousClock.now - began)
            exchange = await send(claim, route: route, timeout: remaining, startedAt: startedAt)
        } catch {
            switch error {
            case .forbidden(let block):
                exchange = Exchange(failure: .addressForbidden, detail: block?.rawValue ?? "forbidden")
            case .invalidURL(let message):
                exchange = Exchange(failure: .addressForbidden, detail: message)
            case .unresolved:
                exchange = Exchange(failure: .connectionFailed, detail: "name did not resolve")
            }
        }
        let elapsed = ContinuousClock.now - began
        let latencyMs = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let attempt = WebhookAttempt(
            number: claim.attemptNumber, startedAt: startedAt, statusCode: exchange.statusCode, latencyMs: latencyMs,
            error: exchange.failure?.rawValue, worker: worker)
        var machine = WebhookDeliveryMachine(claim: claim, policy: settings)
        let actions = machine.handle(.attemptFinished(succeeded: attempt.succeeded), at: clock())
        let retryAt = actions.compactMap(\.retryAt).first
        var metadata: Logger.Metadata = [
            "tenant.id": "\(claim.tenantId)", "webhook.event": "\(claim.eventId)",
            "webhook.endpoint": "\(claim.endpointId)", "webhook.attempt": "\(claim.attemptNumber)",
            "webhook.status": "\(exchange.statusCode.map(String.init) ?? "none")", "webhook.latency_ms": "\(latencyMs)",
            "webhook.worker": "\(worker)",
        ]
        if let failure = exchange.failure { metadata["webhook.error"] = "\(failure.rawValue)" }
        if let detail = exchange.detail { metadata["webhook.error_detail"] = "\(detail)" }
        if let address = exchange.address { metadata["webhook.address"] = "\(address)" }
        if attempt.succeeded {
            logger.debug("webhook delivered", metadata: metadata)
        } else if retryAt == nil {
            logger.warning("webhook dead-lettered", metadata: metadata)
        } else {
            logger.info("webhook attempt failed", metadata: metadata)
        }
        let result = attempt.succeeded ? "succeeded" : retryAt == nil ? "dead" : "failed"
        Counter(label: MetricName.webhookAttempts, dimensions: [("result", result)]).increment()
        Metrics.Timer(label: MetricName.webhookLatency, dimensions: [("result", result)]).record(elapsed)
        do {
            try await store.webhooks.recordWebhookAttempt(claim, attempt: attempt, retryAt: retryAt)
        } catch {
            logger.error("webhook attempt not recorded", metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
    }

    /// Posts the signed event along `route`: a trusted host through the shared client, a checked address
    /// through a client that connects to that address alone (the URL's name still in Host and TLS).
    func send(_ claim: ClaimedDelivery, route: WebhookEgress.Route, timeout: Duration, startedAt: Date) async
        -> Exchange
    {
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
            value: WebhookSignature.sign(
                secrets: claim.signingSecrets(at: startedAt), timestamp: Int(startedAt.timeIntervalSince1970),
                body: claim.payload))
        request.body = .bytes(ByteBuffer(bytes: claim.payload))
        guard timeout > .zero else { return Exchange(failure: .timeout, detail: "no time left after resolving") }
        let deadline = TimeAmount.nanoseconds(
            timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        switch route {
        case .trusted:
            return await exchange(request, client: client, timeout: deadline, address: nil)
        case .pinned(let address):
            // A literal address is connected to as written; a name only through the checked address.
            guard let host = URL(string: claim.url)?.host, !host.isEmpty else {
                return Exchange(failure: .connectionFailed, detail: "no host")
            }
            if host.contains(":") || IPAddress.looksLikeIPv4(host) {
                return await exchange(request, client: client, timeout: deadline, address: "\(address)")
            }
            let pinned = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: Self.configuration(dnsOverride: [host: "\(address)"]))
            let result = await exchange(request, client: pinned, timeout: deadline, address: "\(address)")
            try? await pinned.shutdown()
            return result
        }
    }

    private func exchange(_ request: HTTPClientRequest, client: HTTPClient, timeout: TimeAmount, address: String?)
        async -> Exchange
    {
        do {
            let response = try await client.execute(request, timeout: timeout)
            let status = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return Exchange(
                statusCode: status, failure: (200..<300).contains(status) ? nil : .httpStatus, address: address)
        } catch {
            return Exchange(failure: Self.classify(error), address: address, detail: "\(error)")
        }
    }

    /// The coarse class of a failed exchange.
    static func classify(_ error: any Error) -> WebhookFailure {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            case .tlsHandshakeTimeout: return .tlsError
            case .bodyLengthMismatch, .contentLengthMissing, .identityCodingIncorrectlyPresent:
                return .invalidResponse
            default: return .connectionFailed
            }
        }
        let type = String(describing: type(of: error))
        if type.contains("SSL") || type.contains("TLS") { return .tlsError }
        if type.contains("HTTPParserError") { return .invalidResponse }
        return .connectionFailed
    }
}
