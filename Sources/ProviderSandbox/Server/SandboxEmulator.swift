import Foundation
import Hummingbird
import Logging

/// One provider emulator hosted by ``SandboxServer``.
///
/// The server mounts the provider's wire API under `/<name>` behind a fault-injection middleware,
/// and its admin surface under `/_sandbox/<name>` (the fault endpoints are added by the server for
/// every emulator). Adding a provider means conforming to this protocol and declaring a
/// ``SandboxRegistration`` that creates the emulator.
protocol SandboxEmulator: SandboxFaultControl {
    /// Path segment of the emulator, e.g. `citcon`.
    var name: String { get }
    /// The merchant a wire request belongs to (from its credentials), or nil when unknown.
    func merchant(for request: Request) async -> String?
    /// Whether the wire API is also served at the server's root (for official SDKs that accept a host
    /// but no path prefix). Only for an API whose paths cannot collide with another emulator's.
    var alsoServedAtRoot: Bool { get }
    /// Adds the provider's wire routes to `group` (mounted at `/<name>`).
    func addRoutes(to group: RouterGroup<SandboxRequestContext>)
    /// Adds the emulator-specific admin routes to `group` (mounted at `/_sandbox/<name>`).
    func addAdminRoutes(to group: RouterGroup<SandboxRequestContext>)
    /// The provider's own "momentarily unavailable, nothing processed" answer (the `unavailable` fault).
    func unavailableResponse() -> Response
}

extension SandboxEmulator {
    var alsoServedAtRoot: Bool { false }

    func unavailableResponse() -> Response {
        SandboxHTTP.text("service unavailable", status: .serviceUnavailable)
    }
}

/// An emulator the server creates from its registration: from its own settings, the shared clock, the
/// notification sender and the logger.
protocol RegisteredEmulator: SandboxEmulator {
    /// The emulator's settings in ``SandboxConfiguration``.
    associatedtype Settings: SandboxEmulatorSettings

    init(
        configuration: Settings, clock: @escaping @Sendable () -> Date, notifier: SandboxNotifier, logger: Logger)
}
