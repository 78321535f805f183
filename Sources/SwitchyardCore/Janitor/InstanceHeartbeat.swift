import Foundation
import Logging

/// Records every heartbeat interval (`idempotency.heartbeat_interval_ms`) that this server incarnation is
/// alive, so that other replicas' janitors release its `Idempotency-Key`s only once it has fallen silent (see
/// ``InstanceRegistry``).
public struct InstanceHeartbeat: Sendable {
    let instance: ServerInstance
    let registry: any InstanceRegistry
    let clock: @Sendable () -> Date
    /// The interval between two beats, read before each wait (a policy reload applies to the next one).
    let interval: @Sendable () -> TimeInterval
    let logger: Logger

    public init(
        instance: ServerInstance, registry: any InstanceRegistry, clock: @escaping @Sendable () -> Date,
        interval: @escaping @Sendable () -> TimeInterval, logger: Logger
    ) {
        self.instance = instance
        self.registry = registry
        self.clock = clock
        self.interval = interval
        self.logger = logger
    }

    /// One heartbeat; false when it could not be recorded (logged, except during an outage).
    @discardableResult
    public func beat(outage: DatabaseOutage? = nil) async -> Bool {
        do {
            let current = try await registry.heartbeat(instance, now: clock())
            outage?.succeeded()
            if !current {
                logger.warning(
                    "another server started with this replica id", metadata: ["replica.id": "\(instance.replica)"])
            }
            return true
        } catch {
            if !Task.isCancelled && outage?.failed(error) != true {
                logger.warning("heartbeat failed", metadata: ["error.message": "\(String(describing: error))"])
            }
            return false
        }
    }

    /// Beats until the calling task is cancelled.
    public func run() async {
        let outage = DatabaseOutage(worker: "heartbeat", logger: logger)
        while !Task.isCancelled {
            await beat(outage: outage)
            try? await Task.sleep(for: .milliseconds(Int(interval() * 1000)))
        }
    }
}
