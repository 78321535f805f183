import ServiceLifecycle
import SwitchyardCore

/// The janitor as a service that stops between batches: on graceful shutdown the batch under way (its
/// syncs, sweeps and settlements) finishes instead of being cancelled midway, and no new one starts.
/// Only when the shutdown outlasts its bound is the batch cancelled.
package struct JanitorService: Service {
    package let janitor: PaymentJanitor
    /// The pause between idle polls, read again each time (a policy reload may change it).
    package let pollMs: @Sendable () -> Int

    package func run() async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let busy = await janitor.runOnce()
            let pause = janitor.outage.pauseMs(normal: busy > 0 ? 10 : pollMs())
            _ = try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(pause)) }
        }
    }
}
