import Foundation
import ProviderKit

/// What the registry holds: the plugins it serves and the files it refused.
public struct PluginsSnapshot: Codable, Sendable, Equatable {
    /// A plugin being served.
    public struct Loaded: Codable, Sendable, Equatable {
        public var id: String
        public var version: String
        public var provider: String
        /// The plugin file in the plugins directory.
        public var file: String
        public var sha256: String
        public var flows: [Flow]
        public var methods: [String]
        public var loadedAt: Date

        public init(
            id: String, version: String, provider: String, file: String, sha256: String, flows: [Flow],
            methods: [String], loadedAt: Date
        ) {
            self.id = id
            self.version = version
            self.provider = provider
            self.file = file
            self.sha256 = sha256
            self.flows = flows
            self.methods = methods
            self.loadedAt = loadedAt
        }

        init(_ plugin: LoadedPlugin) {
            self.init(
                id: plugin.manifest.id, version: plugin.manifest.version, provider: plugin.manifest.provider,
                file: plugin.filePath, sha256: plugin.sha256, flows: plugin.manifest.flows,
                methods: plugin.manifest.methods, loadedAt: plugin.loadedAt
            )
        }
    }

    /// A file the registry refused to load.
    public struct Refused: Codable, Sendable, Equatable {
        public var file: String
        /// A stable code (``PluginRefusal/Code``'s raw value).
        public var code: String
        public var reason: String
        public var at: Date

        public init(file: String, code: String, reason: String, at: Date) {
            self.file = file
            self.code = code
            self.reason = reason
            self.at = at
        }
    }

    /// A plugin whose worker crashed too often: it serves nothing until a new file replaces it.
    public struct Quarantined: Codable, Sendable, Equatable {
        public var id: String
        public var file: String
        public var sha256: String
        public var reason: String
        public var at: Date

        public init(id: String, file: String, sha256: String, reason: String, at: Date) {
            self.id = id
            self.file = file
            self.sha256 = sha256
            self.reason = reason
            self.at = at
        }

        init?(_ plugin: LoadedPlugin) {
            guard let quarantine = plugin.quarantine else { return nil }
            self.init(
                id: plugin.id, file: plugin.filePath, sha256: plugin.sha256, reason: quarantine.reason,
                at: quarantine.at)
        }
    }

    /// Served plugins, by id.
    public var loaded: [Loaded]
    /// Refused files, by file name.
    public var refused: [Refused]
    /// Quarantined plugins, by id.
    public var quarantined: [Quarantined] = []

    public init(loaded: [Loaded], refused: [Refused], quarantined: [Quarantined] = []) {
        self.loaded = loaded
        self.refused = refused
        self.quarantined = quarantined
    }
}

/// What one ``PluginRegistry/reload()`` changed.
public struct ReloadReport: Sendable, Equatable {
    /// Plugins loaded for the first time or replaced by a new build.
    public var loaded: [PluginsSnapshot.Loaded] = []
    /// Ids no longer served because their file disappeared (or now declares another id).
    public var removed: [String] = []
    /// Files skipped because they did not change.
    public var unchanged: [String] = []
    /// Files refused by this reload.
    public var refused: [PluginsSnapshot.Refused] = []

    public init() {}
}
