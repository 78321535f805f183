import ProviderKit

/// What a scanner process reports about one plugin file, as one JSON line on its standard output.
///
/// Either `manifest` and `table` (the file passed every check the scanner makes) or `refusal`.
public struct PluginScanReport: Codable, Sendable, Equatable {
    /// Whether the scanner could restrict itself before opening the file.
    public struct Sandbox: Codable, Sendable, Equatable {
        /// True when the seccomp filter was installed.
        public var restricted: Bool
        /// Why it was not (an `errno` description), when it was not.
        public var problem: String?

        public init(restricted: Bool, problem: String? = nil) {
            self.restricted = restricted
            self.problem = problem
        }
    }

    /// Facts about the entry table.
    public struct Table: Codable, Sendable, Equatable {
        public var abiVersion: UInt32
        /// The plugin's `struct_size`.
        public var structSize: UInt32
        /// The entry points present: `create`, `destroy`, `invoke` and, when provided, `cancel`.
        public var entries: [String]

        public init(abiVersion: UInt32, structSize: UInt32, entries: [String]) {
            self.abiVersion = abiVersion
            self.structSize = structSize
            self.entries = entries
        }
    }

    /// A refusal found by the scanner.
    public struct Refusal: Codable, Sendable, Equatable {
        public var code: String
        public var reason: String

        public init(code: String, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    public var sandbox: Sandbox
    public var manifest: PluginManifest?
    public var table: Table?
    public var refusal: Refusal?

    public init(sandbox: Sandbox, manifest: PluginManifest? = nil, table: Table? = nil, refusal: Refusal? = nil) {
        self.sandbox = sandbox
        self.manifest = manifest
        self.table = table
        self.refusal = refusal
    }

    /// The codes a scanner may report itself; anything else in a report is not believed.
    static let scannerCodes: Set<PluginRefusal.Code> = [.garbageFile, .abiMismatch, .badManifest]
}
