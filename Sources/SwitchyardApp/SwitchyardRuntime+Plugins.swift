import PluginHost
import SwitchyardCore

extension SwitchyardRuntime {
    /// Plugin call deadlines and worker supervision from the platform policy: every call is answered
    /// within the provider timeout plus `plugin_workers.deadline_margin_ms`.
    static func pluginRunSettings(_ platform: PlatformPolicy) -> PluginRunSettings {
        let workers = platform.pluginWorkers
        var settings = PluginRunSettings()
        settings.callDeadline = .milliseconds(platform.limits.providerTimeoutMs + workers.deadlineMarginMs)
        settings.cancelGrace = .milliseconds(workers.cancelGraceMs)
        settings.crashLimit = workers.crashLimit
        settings.crashWindow = .milliseconds(workers.crashWindowMs)
        settings.restartBackoff = .milliseconds(workers.restartBackoffMs)
        settings.inProcessThreads = workers.inProcessThreads
        return settings
    }
}
