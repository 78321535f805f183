import Foundation
import Logging
import NIOCore
import PluginHost
import ProviderKit

/// Host services that answer every request with a scripted result and record what plugins did.
final class RecordingHostServices: HostServices, @unchecked Sendable {
    struct LogLine: Equatable {
        var level: PluginLogLevel
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var requests: [OutboundRequest] = []
    private var lines: [LogLine] = []
    private var loops: [Bool] = []
    private let result: OutboundResult
    let fixedNow: Date
    /// The lowest level these services record.
    let logLevel: PluginLogLevel

    init(
        result: OutboundResult = OutboundResult(kind: .response, status: 200, body: Data("pong".utf8)),
        now: Date = Date(timeIntervalSince1970: 1_800_000_000), logLevel: PluginLogLevel = .trace
    ) {
        self.result = result
        fixedNow = now
        self.logLevel = logLevel
    }

    var sent: [OutboundRequest] {
        lock.withLock { requests }
    }

    /// For each request sent, whether it was served on the event loop the host bound for it (a worker's
    /// channel's loop) rather than on some other thread.
    var servedOnTheirLoop: [Bool] {
        lock.withLock { loops }
    }

    var logs: [LogLine] {
        lock.withLock { lines }
    }

    func send(_ request: OutboundRequest) async -> OutboundResult {
        let onLoop = PluginTaskContext.eventLoop?.inEventLoop ?? false
        lock.withLock {
            requests.append(request)
            loops.append(onLoop)
        }
        return result
    }

    func log(_ level: PluginLogLevel, _ message: String, metadata: [String: String]) {
        lock.withLock { lines.append(LogLine(level: level, message: message, metadata: metadata)) }
    }

    func now() -> Date {
        fixedNow
    }
}

extension Logger {
    /// A logger that drops everything.
    static let quiet = Logger(label: "test.quiet") { _ in SwiftLogNoOpLogHandler() }
}

extension AccountContext {
    static let test = AccountContext(
        accountId: "acct-1", environment: "sandbox", baseURL: "https://provider.test", credentials: ["api_key": "k"],
        notificationURL: "https://switchyard.test/n/acct-1"
    )
}

extension AuthorizeRequest {
    static let test = AuthorizeRequest(
        paymentId: "pay-1", attemptId: "att-1", merchantReference: "order-1", amount: 1000, currency: "USD",
        country: "US",
        method: "card", captureMode: .automatic, idempotencyKey: "idem-1"
    )
}

extension SyncRequest {
    static let test = SyncRequest(payment: PaymentLocator(attemptId: "att-1", providerPaymentId: nil))
}

extension RefundRequest {
    static let test = RefundRequest(
        payment: PaymentLocator(attemptId: "att-1", providerPaymentId: "p-1"), refundId: "ref-1", amount: 10,
        currency: "USD"
    )
}
