import ArgumentParser
import Logging
import PluginHost
import ServiceLifecycle
import SwitchyardCore

extension ServeOptions {
    /// A server with an external database is a production server: it refuses a development-mode plugin
    /// policy (any digest loads) unless the operator says, with `--allow-development-plugins`, that this
    /// deployment is not one.
    package static func checkPluginPolicy(
        _ policy: PluginPolicy, external: Bool, allowDevelopment: Bool, policyPath: String, logger: Logger
    ) throws {
        guard external, policy.mode == .development else { return }
        guard allowDevelopment else {
            throw ValidationError(
                "the policy \(policyPath) is in development mode (plugins load with any digest), which a server "
                    + "with --database-url refuses: pin the plugins (`switchyard plugins pin DIR --policy "
                    + "\(policyPath)`, or start from deploy/policy.production.json), or pass "
                    + "--allow-development-plugins for a deployment that is not production")
        }
        logger.warning(
            "development-mode plugin policy with an external database (--allow-development-plugins): plugins load with any digest",
            metadata: ["policy.file": "\(policyPath)"])
    }

    /// How long a graceful shutdown (SIGTERM, SIGINT) may take before what is left is cancelled: requests
    /// in flight get their provider deadline (`limits.provider_timeout_ms` plus the plugin call's
    /// margin and cancel grace) and a little more to answer.
    package static func drainLimit(_ platform: PlatformPolicy) -> Duration {
        let workers = platform.pluginWorkers
        return .milliseconds(
            platform.limits.providerTimeoutMs + workers.deadlineMarginMs + workers.cancelGraceMs + 5_000)
    }
}

extension ServeOptions {
    /// The refusal of a server given no database URL when no embedded default is built in.
    package static var noDatabase: ValidationError {
        ValidationError(
            "no database: pass --database-url or set SWITCHYARD_DATABASE_URL (this executable has no embedded "
                + "default; the development executable `switchyard` starts one)")
    }
}
