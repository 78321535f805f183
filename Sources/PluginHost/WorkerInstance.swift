import Foundation
import ProviderKit

/// A plugin instance in a supervised worker process.
///
/// A worker that dies is restarted after a backoff that doubles with each death in the crash window;
/// calls arriving while none runs are answered `worker_unavailable` (nothing sent). The crash limit
/// within the window quarantines the instance: it answers every call `worker_unavailable` and the
/// registry stops serving it, until a new file replaces it.
final class WorkerInstance: PluginInstance, @unchecked Sendable {
    private let executable: PluginExecutable
    private let file: String
    private let bridge: HostServicesBridge
    private let settings: PluginRunSettings
    private let lock = NSLock()
    private var connection: WorkerConnection?
    private var deaths: [ContinuousClock.Instant] = []
    private var quarantined: PluginQuarantine?
    private var stopped = false

    /// Starts the first worker for the image at `file` (a private copy) and waits for its instance.
    init(executable: PluginExecutable, file: String, bridge: HostServicesBridge, settings: PluginRunSettings)
        throws(PluginRefusal)
    {
        self.executable = executable
        self.file = file
        self.bridge = bridge
        self.settings = settings
        let first = try launch()
        lock.lock()
        connection = first
        lock.unlock()
    }

    deinit {
        lock.lock()
        stopped = true
        let current = connection
        lock.unlock()
        current?.close()
    }

    var quarantine: PluginQuarantine? {
        lock.lock()
        defer { lock.unlock() }
        return quarantined
    }

    /// The pid of the worker serving calls now, if one runs.
    var workerPID: pid_t? {
        lock.lock()
        defer { lock.unlock() }
        return connection?.pid
    }

    func invoke(method: String, payload: Data) async -> Result<Data, PluginCallError> {
        let (current, quarantine) = lock.withLock { (connection, quarantined) }
        if let quarantine {
            return .failure(PluginCallError(.workerUnavailable, message: quarantine.reason))
        }
        guard let current else {
            return .failure(PluginCallError(.workerUnavailable, message: "the plugin worker is restarting"))
        }
        return await PluginCallSlot.run(
            deadline: settings.callDeadline, grace: settings.cancelGrace, ledger: bridge.sends,
            start: { slot in current.start(method: method, payload: payload, slot: slot) },
            cancel: { slot, _ in slot.cancelCall() })
    }

    private func launch() throws(PluginRefusal) -> WorkerConnection {
        try WorkerConnection.launch(
            executable: executable, file: file, bridge: bridge, timeout: settings.callDeadline,
            onExit: { [weak self] connection, description in self?.ended(connection, description) })
    }

    /// A serving worker ended: restart it, or quarantine the plugin.
    private func ended(_ ended: WorkerConnection, _ description: String) {
        lock.lock()
        guard connection === ended else {
            lock.unlock()
            return
        }
        connection = nil
        lock.unlock()
        recordDeath("the plugin worker \(description)")
    }

    private func recordDeath(_ description: String) {
        let now = ContinuousClock.now
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        deaths.append(now)
        deaths.removeAll { now - $0 > settings.crashWindow }
        let count = deaths.count
        if count >= settings.crashLimit {
            let reason =
                "\(description); \(count) worker deaths within \(Int(settings.crashWindow.seconds)) s"
            quarantined = PluginQuarantine(reason: reason, at: bridge.services.now())
            lock.unlock()
            log(.error, "plugin quarantined", ["plugin.worker.deaths": "\(count)", "plugin.reason": description])
            return
        }
        lock.unlock()
        let delay = settings.restartBackoff * (1 << min(count - 1, 8))
        log(
            .warning, "plugin worker ended; restarting",
            [
                "plugin.worker.deaths": "\(count)", "plugin.reason": description,
                "plugin.restart_ms": "\(Int(delay.seconds * 1000))",
            ])
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
            self?.restart()
        }
    }

    private func restart() {
        lock.lock()
        let wanted = !stopped && connection == nil && quarantined == nil
        lock.unlock()
        guard wanted else { return }
        do throws(PluginRefusal) {
            let started = try launch()
            lock.lock()
            if stopped {
                lock.unlock()
                started.close()
                return
            }
            connection = started
            lock.unlock()
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
