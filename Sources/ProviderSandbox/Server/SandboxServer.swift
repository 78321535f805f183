import Foundation
import Hummingbird
import Logging

/// One HTTP server hosting every registered provider emulator on loopback.
///
/// Each emulator answers under its own prefix (Citcon at `/citcon`, Worldline Direct at
/// `/worldline-direct`, Antom at `/antom`, …), with fault injection in front of it, and exposes an admin
/// surface under `/_sandbox/<provider>/…` (ledger, faults, helpers). The emulators are those of
/// ``SandboxRegistration/all``; each provider folder adds a typed accessor (e.g. ``citcon``).
/// ``run(host:port:onRunning:)`` serves until the calling task is cancelled, so the server can run
/// inside another process's task group or on its own.
public struct SandboxServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: SandboxConfiguration
    /// Every hosted emulator, in registration order.
    let emulators: [any SandboxEmulator]
    private let notifier: SandboxNotifier
    private let logger: Logger

    /// Creates a server and its emulators (in-memory state starts empty).
    /// - Parameters:
    ///   - configuration: merchants and behaviour of the emulators.
    ///   - logger: logger of the server, the emulators and the notification sender.
    public init(configuration: SandboxConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let notifier = SandboxNotifier(policy: configuration.notificationRetry, logger: logger)
        self.notifier = notifier
        self.emulators = SandboxRegistration.all.map { $0.makeEmulator(configuration, notifier, logger) }
    }

    /// The hosted emulator of type `Emulator` (every registered emulator is hosted).
    func emulator<Emulator: SandboxEmulator>(_ type: Emulator.Type) -> Emulator {
        guard let emulator = emulators.lazy.compactMap({ $0 as? Emulator }).first else {
            preconditionFailure("\(Emulator.self) is not registered in SandboxRegistration.all")
        }
        return emulator
    }

    /// Serves every emulator until the calling task is cancelled, then returns.
    /// - Parameters:
    ///   - host: address to bind (loopback by default).
    ///   - port: port to bind; 0 picks any free port.
    ///   - onRunning: called once listening, with the bound port.
    public func run(
        host: String = "127.0.0.1",
        port: Int,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let app = Application(
            router: buildRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "switchyard-sandbox"),
            onServerRunning: { channel in
                await onRunning(channel.localAddress?.port ?? port)
            },
            logger: logger
        )
        let notifier = self.notifier
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await notifier.run() }
                try await app.run()
                group.cancelAll()
            }
        } catch {
            if Task.isCancelled { return }
            throw error
        }
    }

    func buildRouter() -> Router<SandboxRequestContext> {
        let router = Router(context: SandboxRequestContext.self)
        for emulator in emulators {
            for mount in emulator.alsoServedAtRoot ? [emulator.name, ""] : [emulator.name] {
                let wire = router.group(RouterPath(mount))
                wire.add(
                    middleware: SandboxFaultMiddleware(
                        prefix: mount.isEmpty ? "" : "/" + mount,
                        injector: emulator.faults,
                        merchant: { request in await emulator.merchant(for: request) },
                        unavailable: { emulator.unavailableResponse() }
                    )
                )
                emulator.addRoutes(to: wire)
            }
            let admin = router.group(RouterPath("_sandbox/\(emulator.name)"))
            addFaultRoutes(to: admin, injector: emulator.faults)
            emulator.addAdminRoutes(to: admin)
        }
        return router
    }

    /// `GET` lists the active rules, `POST` appends rules (a JSON list or one object), `DELETE`
    /// removes all rules, or only those of `?merchant=`.
    private func addFaultRoutes(to group: RouterGroup<SandboxRequestContext>, injector: SandboxFaultInjector) {
        group.get("faults") { _, _ in
            SandboxHTTP.json(await injector.activeRules)
        }
        group.post("faults") { request, _ in
            let bytes = try await SandboxHTTP.body(of: request)
            let decoder = SandboxHTTP.adminDecoder
            let rules: [SandboxFault]
            if let list = try? decoder.decode([SandboxFault].self, from: Data(bytes)) {
                rules = list
            } else if let one = try? decoder.decode(SandboxFault.self, from: Data(bytes)) {
                rules = [one]
            } else {
                return SandboxHTTP.json(["error": "expected a fault rule or a list of rules"], status: .badRequest)
            }
            if let refused = injector.unsupportedKinds(in: rules).first {
                return SandboxHTTP.json(
                    ["error": "this emulator does not support the fault kind \(refused.rawValue)"], status: .badRequest)
            }
            await injector.add(rules)
            return SandboxHTTP.json(await injector.activeRules)
        }
        group.delete("faults") { request, _ in
            await injector.clear(merchant: SandboxHTTP.query("merchant", of: request))
            return Response(status: .noContent)
        }
    }
}
