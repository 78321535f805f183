import Foundation
import Logging
import NIOCore
import NIOPosix
import PluginHost
import ProviderKit

/// Certifies a plugin file offline, the way `switchyard plugins check` does: loads it as the server
/// would (the runtime check, a scanner process, then a worker process), checks its manifest, drives
/// every declared flow against a ``StubProvider`` (the scenario's answers, then each fault) and checks
/// the ABI's contract on everything it saw.
struct PluginCertifier: Sendable {
    /// The plugin file.
    var file: String
    /// The scenario, if any, and its path (for the report).
    var scenario: CertificationScenario?
    var scenarioPath: String?
    /// The `switchyard` executable whose `plugin-scan` and worker load the file.
    var executable: PluginExecutable
    /// How long the host waits after asking a plugin to cancel.
    var cancelGrace: Duration = .seconds(1)
    /// The host's deadline for one call.
    var callDeadline: Duration = .seconds(5)
    /// A call answered at once by the stub must complete within this.
    var promptLimit: Duration = .seconds(3)

    /// Runs every check.
    func run() async -> CertificationReport {
        var report = CertificationReport(file: file, scenario: scenarioPath)
        let logger = Logger(label: "switchyard.plugins.check") { _ in SwiftLogNoOpLogHandler() }
        let http = OutboundHTTPService(defaultTimeout: .seconds(10), connectTimeout: .seconds(2), logger: logger)
        let host = RecordingHostServices(http: http, clock: scenario?.now)
        defer { Task { try? await http.shutdown() } }
        let plugin: LoadedPlugin
        do {
            plugin = try await load(host: host, logger: logger)
        } catch {
            report.checks.append(.fail("load", "refused \(error.code.rawValue): \(error.reason)"))
            return report
        }
        report.plugin = plugin.id
        report.checks.append(.pass("load", "scanned, then started in a worker process (\(plugin.manifest.provider))"))
        report.checks.append(CertificationManifestCheck(manifest: plugin.manifest).check())
        let group = MultiThreadedEventLoopGroup.singleton
        let stub: StubProvider
        do {
            stub = try await StubProvider.start(on: group)
        } catch {
            report.checks.append(.fail("stub provider", "cannot listen on 127.0.0.1: \(error)"))
            return report
        }
        var run = CertificationRun(
            plugin: plugin, host: host, stub: stub,
            requests: CertificationRequests(manifest: plugin.manifest, scenario: scenario),
            cancelGrace: cancelGrace, promptLimit: promptLimit)
        await run.driveFlows()
        await run.driveNotifications()
        await stub.closeConnections()
        await run.settle()
        report.checks += run.checks + run.contractChecks()
        await stub.stop()
        // The report quotes the plugin's messages: a plugin that puts a secret in one must not make the report
        // show it.
        let secrets = run.requests.secrets
        report.checks = report.checks.map { check in
            var redacted = check
            for secret in secrets {
                redacted.detail = redacted.detail.replacingOccurrences(of: secret, with: "[redacted]")
            }
            return redacted
        }
        return report
    }

    private func load(host: RecordingHostServices, logger: Logger) async throws(PluginRefusal) -> LoadedPlugin {
        let loader: PluginLoader
        do {
            loader = try PluginLoader(executable: executable, logger: logger)
        } catch {
            throw PluginRefusal(.garbageFile, "no private directory for the plugin's copy: \(error)")
        }
        let policy = PluginPolicy(mode: .development, allowsAnyID: true)
        var settings = PluginRunSettings(executable: executable)
        settings.policy = policy
        settings.callDeadline = callDeadline
        settings.cancelGrace = cancelGrace
        settings.crashLimit = 1_000
        return try await loader.load(file: file, policy: policy, hostServices: host, settings: settings)
    }
}
