import Foundation
import ProviderKit
import Synchronization

/// A plugin instance in a supervised worker process.
///
/// A worker that dies is restarted after a backoff that doubles with each death in the crash window;
/// calls arriving while none runs are answered `worker_unavailable` (nothing sent). The crash limit
/// within the window quarantines the instance: it answers every call `worker_unavailable` and the
/// registry stops serving it, until a new file replaces it. The decisions are ``WorkerSupervision``'s;
/// the restart is a wake-up of the settings' ``PluginTimer``, and no thread waits for a worker's handshake.
final class WorkerInstance: PluginInstance, Sendable {
    private let executable: PluginExecutable
    private let file: String
    private let bridge: HostServicesBridge
    private let settings: PluginRunSettings

    private struct State {
        var connection: WorkerConnection?
        var supervision: WorkerSupervision
        var quarantined: PluginQuarantine?
    }

    private let state: Mutex<State>

    private init(executable: PluginExecutable, file: String, bridge: HostServicesBridge, settings: PluginRunSettings) {
        self.executable = executable
        self.file = file
        self.bridge = bridge
        self.settings = settings
        state = Mutex(
            State(
                supervision: WorkerSupervision(
                    crashLimit: settings.crashLimit, crashWindow: settings.crashWindow,
                    restartBackoff: settings.restartBackoff)))
    }

    /// Starts the first worker for the image at `file` (a private copy) and waits for its instance.
    static func start(
        executable: PluginExecutable, file: String, bridge: HostServicesBridge, settings: PluginRunSettings
    ) async throws(PluginRefusal) -> WorkerInstance {
        let instance = WorkerInstance(executable: executable, file: file, bridge: bridge, settings: settings)
        let first = try await instance.launch()
        instance.state.withLock { $0.connection = first }
        return instance
    }

    deinit {
        let current = state.withLock { state in
            state.supervision.stop()
            return state.connection
        }
        current?.close()
    }

    var quarantine: PluginQuarantine? {
        state.withLock { $0.quarantined }
    }

    /// The pid of the worker serving calls now, if one runs.
    var workerPID: pid_t? {
        state.withLock { $0.connection?.pid }
    }

    func invoke(method: String, payload: Data) async -> Result<Data, PluginCallError> {
        let (current, quarantine) = state.withLock { ($0.connection, $0.quarantined) }
        if let quarantine {
            return .failure(PluginCallError(.workerUnavailable, message: quarantine.reason))
        }
        guard let current else {
            return .failure(PluginCallError(.workerUnavailable, message: "the plugin worker is restarting"))
        }
        return await PluginCalls.shared.call(
            deadline: settings.callDeadline, grace: settings.cancelGrace, timer: settings.timer, ledger: bridge.sends,
            owner: current.owner,
            start: { id in current.start(id, method: method, payload: payload) },
            cancel: { id, _ in current.cancel(id) })
    }

    private func launch() async throws(PluginRefusal) -> WorkerConnection {
        try await WorkerConnection.launch(
            executable: executable, file: file, bridge: bridge, timeout: settings.callDeadline, timer: settings.timer,
            onExit: { [weak self] connection, description in self?.ended(connection, description) })
    }

    /// A serving worker ended: restart it, or quarantine the plugin.
    private func ended(_ ended: WorkerConnection, _ description: String) {
        let serving = state.withLock { state in
            guard state.connection === ended else { return false }
            state.connection = nil
            return true
        }
        if serving { recordDeath("the plugin worker \(description)") }
    }

    private func recordDeath(_ description: String) {
        let timer = settings.timer
        let action = state.withLock { state in
            let action = state.supervision.died(description, at: timer.now)
            if case .quarantine(let reason, _) = action {
                state.quarantined = PluginQuarantine(reason: reason, at: bridge.services.now())
            }
            return action
        }
        switch action {
        case .none:
            break
        case .quarantine(_, let deaths):
            log(.error, "plugin quarantined", ["plugin.worker.deaths": "\(deaths)", "plugin.reason": description])
        case .restart(let at, let deaths, let delay):
            log(
                .warning, "plugin worker ended; restarting",
                [
                    "plugin.worker.deaths": "\(deaths)", "plugin.reason": description,
                    "plugin.restart_ms": "\(Int(delay.seconds * 1000))",
                ])
            _ = timer.wake(at: at) { [weak self] in
                guard let self else { return }
                Task { await self.restart() }
            }
        }
    }

    private func restart() async {
        let now = settings.timer.now
        guard state.withLock({ $0.connection == nil && $0.supervision.shouldStart(at: now) }) else { return }
        do throws(PluginRefusal) {
            let started = try await launch()
            let kept = state.withLock { state in
                guard state.supervision.state != .stopped else { return false }
                state.connection = started
                state.supervision.started()
                return true
            }
            guard kept else {
                started.close()
                return
            }
            log(.notice, "plugin worker restarted", ["plugin.worker.pid": "\(started.pid)"])
        } catch {
            recordDeath(error.reason)
        }
    }

    private func log(_ level: PluginLogLevel, _ message: String, _ metadata: [String: String]) {
        var metadata = metadata
        metadata["plugin.id"] = bridge.pluginID
        bridge.services.log(level, message, metadata: metadata)
    }
}
