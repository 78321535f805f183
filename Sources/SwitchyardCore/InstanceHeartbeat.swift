import Foundation
import Logging

/// Records every ``ServerInstance/heartbeatInterval`` that this server incarnation is alive, so that other
/// replicas' janitors release its `Idempotency-Key`s only once it has fallen silent (see ``InstanceRegistry``).
public struct InstanceHeartbeat: Sendable {
    let instance: ServerInstance
    let registry: any InstanceRegistry
    let clock: @Sendable () -> Date
    let logger: Logger

    public init(
        instance: ServerInstance, registry: any InstanceRegistry, clock: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.instance = instance
        self.registry = registry
        self.clock = clock
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
            try? await Task.sleep(for: .milliseconds(Int(ServerInstance.heartbeatInterval * 1000)))
        }
    }
}
