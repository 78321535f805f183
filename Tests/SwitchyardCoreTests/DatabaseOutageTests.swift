import Foundation
import Logging
import SwitchyardCore
import Testing

/// A background worker logs a database outage once when it starts and once when it ends, waits longer
/// between attempts while it lasts, and ignores failures that are not an outage; the policy's keepalive
/// keys decode and are held within their ranges.
@Suite struct DatabaseOutageTests {
    struct Failure: StorageFailure {
        var isBusy = false
        var isUnstorableText = false
        var isUnavailable = false
        var description: String { "connection lost" }
    }

    /// Counts the messages logged, by text.
    final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var logged: [String] = []
        var all: [String] { lock.withLock { logged } }

        var logger: Logger {
            Logger(label: "outage-test") { _ in Handler(messages: self) }
        }

        struct Handler: LogHandler {
            let messages: Messages
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) { messages.lock.withLock { messages.logged.append("\(event.message)") } }
        }
    }

    @Test func anOutageIsLoggedOnceAndTheWaitGrowsUntilItEnds() {
        let messages = Messages()
        let outage = DatabaseOutage(worker: "janitor", logger: messages.logger)
        #expect(outage.pauseMs(normal: 500) == 500)
        #expect(!outage.failed(Failure(isBusy: true)))
        #expect(!outage.isOngoing)
        var pauses: [Int] = []
        for _ in 0..<8 {
            #expect(outage.failed(Failure(isUnavailable: true)))
            pauses.append(outage.pauseMs(normal: 500))
        }
        #expect(pauses == [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
        #expect(outage.isOngoing)
        #expect(messages.all == ["database unavailable; backing off"])
        outage.succeeded()
        outage.succeeded()
        #expect(!outage.isOngoing)
        #expect(outage.pauseMs(normal: 500) == 500)
        #expect(messages.all == ["database unavailable; backing off", "database reachable again"])
        #expect(outage.failed(Failure(isUnavailable: true)))
        #expect(messages.all.count == 3, "a new outage is logged again")
    }

    @Test func theKeepaliveKeysDecodeAndAreHeldWithinTheirRanges() throws {
        let defaults = try JSONDecoder().decode(PlatformPolicy.self, from: Data("{}".utf8)).database.keepalive
        #expect(defaults.idleSeconds == 4 && defaults.intervalSeconds == 2 && defaults.count == 3)
        #expect(defaults.tcpUserTimeoutMs == 10_000)
        let json = #"""
            {"database":{"pool_size":4,"keepalives_idle_seconds":0,"keepalives_interval_seconds":5,
             "keepalives_count":1000,"tcp_user_timeout_ms":20000}}
            """#
        let set = try JSONDecoder().decode(PlatformPolicy.self, from: Data(json.utf8)).database.keepalive
        #expect(set.idleSeconds == 1 && set.intervalSeconds == 5 && set.count == 100)
        #expect(set.tcpUserTimeoutMs == 20_000)
        #expect(try UnknownKeys.find(in: Data(json.utf8), readBy: [PlatformPolicy.self]).isEmpty)
        let typo = #"{"database":{"keepalive_count":3}}"#
        let unknown = try UnknownKeys.find(in: Data(typo.utf8), readBy: [PlatformPolicy.self])
        #expect(unknown.map(\.path) == ["database.keepalive_count"])
    }
}
