import Foundation
import Logging
import ProviderKit

/// The plugins served by this process, loaded from one directory and checked against the policy.
///
/// ``reload()`` looks at `*.so` files: an unchanged file is skipped; every new or changed file is
/// scanned in a scanner process first, then each claimed id is decided (``PluginIDDecision``) and only
/// the winners are opened; a winner replaces the plugin previously loaded from that file (the old
/// image stays mapped, idle); a refused file is listed with its reason while any earlier build of it
/// keeps serving; a file that disappeared is unloaded. Two files never serve the same id.
public actor PluginRegistry {
    /// What the registry knows about one file of the directory.
    struct FileRecord {
        /// `nil` when the file must be examined again whatever its fingerprint.
        var fingerprint: FileFingerprint?
        var sha256: String?
        /// The plugin this file provides, if one is served.
        var plugin: LoadedPlugin?
        var refusal: PluginsSnapshot.Refused?
    }

    /// The directory scanned for plugin files.
    public nonisolated let directory: String
    var policy: PluginPolicy
    let hostServices: any HostServices
    let logger: Logger
    private let shadowDirectory: String?
    /// The executable that runs scanner and worker processes; `nil` where none is available.
    let executable: PluginExecutable?
    /// Deadlines, isolation and supervision of the plugins loaded (the executable and policy are the registry's).
    let runSettings: PluginRunSettings
    private var loader: PluginLoader?
    var files: [String: FileRecord] = [:]
    var byID: [String: LoadedPlugin] = [:]
    /// The reload in progress, if any: reloads run one after another.
    var reloading: Task<ReloadReport, Never>?
    /// Set when something other than the directory changed (the policy) and the watcher must reload.
    var rescanNeeded = false

    /// Creates an empty registry; call ``reload()`` or ``watch(every:)`` to load plugins.
    ///
    /// - Parameters:
    ///   - directory: Where the plugin files are.
    ///   - policy: Which plugins may load.
    ///   - hostServices: The services every plugin instance gets; its clock stamps loads and refusals.
    ///   - logger: Where load, refusal and removal lines go.
    ///   - shadowDirectory: Where opened copies are kept; `nil` makes a private temporary directory.
    ///   - executable: The `switchyard` executable for scanner and worker processes.
    ///   - runSettings: Call deadlines and worker supervision (its executable and policy are replaced by
    ///     the registry's).
    public init(
        directory: String, policy: PluginPolicy, hostServices: any HostServices, logger: Logger,
        shadowDirectory: String? = nil, executable: PluginExecutable? = nil,
        runSettings: PluginRunSettings = PluginRunSettings()
    ) {
        self.executable = executable
        self.runSettings = runSettings
        self.directory = directory
        self.policy = policy
        self.hostServices = hostServices
        self.logger = logger
        self.shadowDirectory = shadowDirectory
    }

    /// The plugin serving `id`, if any.
    public func plugin(id: String) -> LoadedPlugin? {
        guard let plugin = byID[id], plugin.quarantine == nil else { return nil }
        return plugin
    }

    /// The served plugins and the refused files.
    public func snapshot() -> PluginsSnapshot {
        PluginsSnapshot(
            loaded: byID.values.filter { $0.quarantine == nil }.map(PluginsSnapshot.Loaded.init).sorted {
                $0.id < $1.id
            },
            refused: files.values.compactMap(\.refusal).sorted { $0.file < $1.file },
            quarantined: byID.values.compactMap(PluginsSnapshot.Quarantined.init).sorted { $0.id < $1.id }
        )
    }

    /// Replaces the policy. Served plugins it no longer allows stop being served at once; refused
    /// files are examined again by the next reload (which the watcher starts on its next tick).
    public func updatePolicy(_ newPolicy: PluginPolicy) {
        policy = newPolicy
        for (path, record) in files {
            var updated = record
            if let plugin = record.plugin {
                let decision = newPolicy.evaluate(id: plugin.id, sha256: plugin.sha256)
                if decision != .allowed {
                    let refusal =
                        decision == .idNotAllowed
                        ? PluginRefusal(.notAllowed, "plugin id \(plugin.id) is no longer allowed by the policy")
                        : PluginRefusal(
                            .digestMismatch, "the file's SHA-256 is no longer listed for plugin \(plugin.id)")
                    unserve(plugin, from: path)
                    updated.plugin = nil
                    updated.refusal = refusalRecord(path, refusal)
                    logger.warning(
                        "plugin unloaded by policy",
                        metadata: ["plugin.id": "\(plugin.id)", "plugin.refusal.code": "\(refusal.code.rawValue)"]
                    )
                }
            }
            if updated.refusal != nil {
                updated.fingerprint = nil
            }
            files[path] = updated
        }
        rescanNeeded = true
    }

    /// Stops serving `plugin` if `path` provides it; returns whether it was served. A file refused as
    /// a duplicate of it gets examined again.
    @discardableResult
    func unserve(_ plugin: LoadedPlugin, from path: String) -> Bool {
        guard byID[plugin.id]?.filePath == path else { return false }
        byID[plugin.id] = nil
        for (other, record) in files where record.refusal?.code == PluginRefusal.Code.duplicateID.rawValue {
            files[other]?.fingerprint = nil
        }
        return true
    }

    func currentLoader() throws(PluginRefusal) -> PluginLoader {
        if let loader { return loader }
        do {
            let made = try PluginLoader(shadowDirectory: shadowDirectory, executable: executable, logger: logger)
            loader = made
            return made
        } catch {
            logger.error("plugin shadow directory unavailable", metadata: ["plugin.directory": "\(directory)"])
            throw PluginRefusal(.garbageFile, "the private directory for loading plugins cannot be created")
        }
    }

    func refusalRecord(_ path: String, _ refusal: PluginRefusal) -> PluginsSnapshot.Refused {
        PluginsSnapshot.Refused(file: path, code: refusal.code.rawValue, reason: refusal.reason, at: hostServices.now())
    }
}
