import ArgumentParser
import Foundation
import SwitchyardCore

/// Every serve setting that matters in a deployment can come from the environment as well as from its
/// flag (the flag wins): `SWITCHYARD_<FLAG>` with the flag's name in upper case and `_` for `-`.
extension ServeOptions {
    package var host: String { hostOption ?? CommandSupport.environment("SWITCHYARD_HOST") ?? "127.0.0.1" }

    package var port: Int {
        get throws {
            try CommandSupport.checkedPort(
                portOption ?? CommandSupport.environmentInteger("SWITCHYARD_PORT") ?? 8080,
                from: "--port (or SWITCHYARD_PORT)")
        }
    }

    package var metricsPort: Int? {
        get throws {
            try (metricsPortOption ?? CommandSupport.environmentInteger("SWITCHYARD_METRICS_PORT")).map {
                try CommandSupport.checkedPort($0, from: "--metrics-port (or SWITCHYARD_METRICS_PORT)")
            }
        }
    }

    package var pluginsDir: String? { pluginsDirOption ?? CommandSupport.environment("SWITCHYARD_PLUGINS_DIR") }

    package var logFormat: LogFormat? {
        get throws {
            if let logFormatOption { return logFormatOption }
            guard let value = CommandSupport.environment("SWITCHYARD_LOG_FORMAT") else { return nil }
            guard let format = LogFormat(rawValue: value.lowercased()) else {
                throw ValidationError("SWITCHYARD_LOG_FORMAT=\(value) must be json or text")
            }
            return format
        }
    }

    package var allowDevelopmentPlugins: Bool {
        get throws {
            try allowDevelopmentPluginsFlag || CommandSupport.environmentFlag("SWITCHYARD_ALLOW_DEVELOPMENT_PLUGINS")
        }
    }

    package var allowLoopbackPublicURL: Bool {
        get throws {
            try allowLoopbackPublicURLFlag || CommandSupport.environmentFlag("SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL")
        }
    }

    /// The base URL providers send notifications to (``PublicURLChoice``); refused, naming the flag and
    /// the variable, when a server with an external database has none or a loopback one.
    package func publicURL(host: String, port: Int, external: Bool) throws -> String {
        let choice = PublicURLChoice(
            configured: publicURLOption ?? CommandSupport.environment("SWITCHYARD_PUBLIC_URL"), host: host,
            port: port, externalDatabase: external, allowLoopback: try allowLoopbackPublicURL)
        switch choice.decide() {
        case .success(let url): return url
        case .failure(let refusal): throw ValidationError(refusal.description)
        }
    }

    /// The replica id: `--replica-id`, SWITCHYARD_REPLICA_ID, else `<hostname>:<port>`; refused when unusable.
    func replicaId(port: Int) throws -> String {
        let replica =
            replicaIdOption ?? CommandSupport.environment("SWITCHYARD_REPLICA_ID")
            ?? "\(ProcessInfo.processInfo.hostName):\(port)"
        if let problem = ServerInstance.problem(replica: replica) { throw ValidationError("--replica-id: \(problem)") }
        return replica
    }

    /// Refuses, before anything starts, environment values that cannot be read.
    package func validateEnvironment() throws {
        _ = try (port, metricsPort, logFormat, allowDevelopmentPlugins, allowLoopbackPublicURL)
        _ = try replicaId(port: port)
        _ = try CommandSupport.logLevel()
    }
}
