import Foundation
import ProviderKit

/// A plugin instance inside the server. Its calls run on the plugin's own threads; a call still queued
/// at its deadline is answered `deadline_before_send` and never started.
final class InProcessInstance: PluginInstance, @unchecked Sendable {
    private let handle: PluginInstanceHandle
    private let threads: PluginThreads
    private let settings: PluginRunSettings

    init(handle: PluginInstanceHandle, pluginID: String, settings: PluginRunSettings) {
        self.handle = handle
        threads = PluginThreads(count: settings.inProcessThreads, name: pluginID)
        self.settings = settings
    }

    deinit {
        threads.stop()
    }

    var quarantine: PluginQuarantine? { nil }

    func invoke(method: String, payload: Data) async -> Result<Data, PluginCallError> {
        let handle = self.handle
        let threads = self.threads
        let calls = PluginCalls.shared
        return await calls.call(
            deadline: settings.callDeadline, grace: settings.cancelGrace, timer: settings.timer, ledger: handle.sends,
            owner: PluginCalls.inProcessOwner,
            start: { id in
                threads.submit {
                    guard calls.begin(id) else { return }
                    handle.start(id, method: method, payload: payload)
                    calls.invokeReturned(id)
                }
            },
            cancel: { id, _ in threads.submit { handle.cancel(id) } })
    }
}
