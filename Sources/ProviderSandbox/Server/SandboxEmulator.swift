import Hummingbird

/// One provider emulator hosted by ``SandboxServer``.
///
/// The server mounts the provider's wire API under `/<name>` behind a fault-injection middleware,
/// and its admin surface under `/_sandbox/<name>` (the fault endpoints are added by the server for
/// every emulator). Adding a provider means conforming to this protocol and listing the emulator in
/// ``SandboxServer/emulators``.
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
