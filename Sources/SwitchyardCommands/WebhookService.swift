import ServiceLifecycle
import SwitchyardApp

/// The webhook worker as a service that stops after its current deliveries: on graceful shutdown it
/// claims nothing more and lets the deliveries under way finish instead of cutting them short. Only when
/// the shutdown outlasts its bound are they cancelled (their leases make them due again).
package struct WebhookService: Service {
    package let runtime: SwitchyardRuntime

    package func run() async {
        await runtime.runWebhooks(stopping: { Task.isShuttingDownGracefully })
    }
}
