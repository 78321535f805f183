import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Delivers emulators' notifications with retries, and records every attempt.
///
/// Notifications are queued by ``enqueue(_:)`` and delivered while ``run()`` is running (inside the
/// server's task tree, so cancelling the server stops deliveries). Notifications queued while no run
/// is active wait for the next one.
actor SandboxNotifier {
    private let policy: SandboxNotificationRetryPolicy
    private let logger: Logger
    private var waiting: [SandboxNotification] = []
    private var continuation: AsyncStream<SandboxNotification>.Continuation?
    private var runID = 0
    private(set) var attempts: [SandboxNotificationAttempt] = []

    init(policy: SandboxNotificationRetryPolicy, logger: Logger) {
        self.policy = policy
        self.logger = logger
    }

    /// Queues `notification` for delivery.
    func enqueue(_ notification: SandboxNotification) {
        if let continuation {
            continuation.yield(notification)
        } else {
            waiting.append(notification)
        }
    }

    /// Delivers queued notifications until the calling task is cancelled.
    func run(client: HTTPClient = .shared) async {
        guard self.continuation == nil else {
            logger.warning("sandbox.notifier.already_running")
            return
        }
        let (stream, continuation) = AsyncStream.makeStream(of: SandboxNotification.self)
        runID += 1
        let myRun = runID
        self.continuation = continuation
        for notification in waiting { continuation.yield(notification) }
        waiting.removeAll()
        // The stream ends when the calling task is cancelled; in-flight deliveries see the cancellation too.
        await withDiscardingTaskGroup { group in
            for await notification in stream {
                group.addTask { await self.deliver(notification, client: client) }
            }
        }
        if runID == myRun { self.continuation = nil }
    }

    private func deliver(_ notification: SandboxNotification, client: HTTPClient) async {
        var delay = policy.initialDelay
        for attempt in 1...policy.maxAttempts {
            if Task.isCancelled { return }
            let outcome = await send(notification, client: client)
            record(notification, attempt: attempt, outcome: outcome)
            if case .answered(_, acknowledged: true) = outcome { return }
            guard attempt < policy.maxAttempts else { break }
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            delay = min(delay * 2, policy.maxDelay)
        }
        logger.warning(
            "sandbox.notification.abandoned",
            metadata: [
                "provider.name": .string(notification.provider), "provider.account": .string(notification.merchant),
            ]
        )
    }

    private enum Outcome {
        case answered(Int, acknowledged: Bool)
        case failed(String)
    }

    private nonisolated func send(_ notification: SandboxNotification, client: HTTPClient) async -> Outcome {
        var request = HTTPClientRequest(url: notification.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: notification.contentType)
        request.headers.add(name: "User-Agent", value: "switchyard-sandbox")
        for header in notification.headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: notification.body))
        let timeout = TimeAmount.milliseconds(policy.attemptTimeout.milliseconds)
        do {
            let response = try await client.execute(request, timeout: timeout)
            let status = Int(response.status.code)
            let buffer = try? await response.body.collect(upTo: 64 * 1024)
            let body = buffer.map { Array($0.readableBytesView) } ?? []
            let acknowledged = notification.acknowledges?(status, body) ?? (200..<300).contains(status)
            return .answered(status, acknowledged: acknowledged)
        } catch {
            return .failed(String(describing: type(of: error)))
        }
    }

    private func record(_ notification: SandboxNotification, attempt: Int, outcome: Outcome) {
        var entry = SandboxNotificationAttempt(
            provider: notification.provider,
            merchant: notification.merchant,
            subject: notification.subject,
            url: notification.url,
            attempt: attempt,
            statusCode: nil,
            error: nil,
            acknowledged: false,
            time: Date()
        )
        switch outcome {
        case .answered(let status, let acknowledged):
            entry.statusCode = status
            entry.acknowledged = acknowledged
        case .failed(let reason):
            entry.error = reason
        }
        attempts.append(entry)
        logger.debug(
            "sandbox.notification.attempt",
            metadata: [
                "provider.name": .string(notification.provider),
                "provider.account": .string(notification.merchant),
                "notification.attempt": .stringConvertible(attempt),
                "notification.status": .string(entry.statusCode.map(String.init) ?? entry.error ?? "-"),
            ]
        )
    }
}

extension Duration {
    /// Whole milliseconds of this duration.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
