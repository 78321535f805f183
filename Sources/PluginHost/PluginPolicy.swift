import SwitchyardCore

/// Which plugins may load: the `plugins` section of `policy.json`.
///
/// ```json
/// { "mode": "pinned", "allowed": [ { "id": "citcon", "sha256": ["<hex>"] } ] }
/// ```
/// - `pinned`: a plugin loads only if its id is allowed and its file's SHA-256 is listed for that id.
/// - `development`: an id in `allowed` loads with any digest, unless digests are listed for it (then
///   only those load, as in pinned mode). An empty or missing `allowed` allows no id; `"allowed": "*"`
///   (development mode only, written by the operator) allows every id.
public struct PluginPolicy: Codable, Sendable, Equatable {
    /// How strictly plugin files are checked.
    public enum Mode: String, Codable, Sendable {
        /// Ids and digests must both be listed.
        case pinned
        /// Digests are checked only for ids that list some.
        case development
    }

    /// One allowed plugin id and the digests of its allowed files (`plugins.allowed[]`).
    public struct Entry: PolicySection {
        /// The plugin id, as its manifest declares it.
        public var id: String
        /// Lowercase or uppercase hex SHA-256 digests of the allowed `.so` files.
        public var sha256: [String] = []
        /// Where the plugin runs (`process` unless the policy says `in_process`).
        public var isolation: PluginIsolation = .process
        /// The plugin version the digests were pinned from (`switchyard plugins pin` writes it); informative.
        public var version: String?

        public init(id: String, sha256: [String] = []) {
            self.id = id
            self.sha256 = sha256
        }

        /// An entry without an id yet; decoding requires one.
        public init() {
            self.init(id: "")
        }

        public static let name = "plugins.allowed"
        public static let fields: [PolicyField<Entry>] = [
            .required("id", \.id, "The plugin id, as its manifest declares it."),
            .key("sha256", \.sha256, "Hex SHA-256 digests of the allowed files."),
            .key("isolation", \.isolation, "Where the plugin runs: process or in_process."),
            .optional("version", \.version, shownDefault: "none", "The plugin version the digests were pinned from."),
        ]
    }

    /// How strictly files are checked.
    public var mode: Mode
    /// The allowed ids, with their allowed digests.
    public var allowed: [Entry]
    /// Whether every id may load (`"allowed": "*"`, development mode only).
    public var allowsAnyID: Bool

    public init(mode: Mode, allowed: [Entry] = [], allowsAnyID: Bool = false) {
        self.mode = mode
        self.allowed = allowed
        self.allowsAnyID = allowsAnyID && mode == .development
    }

    private enum CodingKeys: String, CodingKey {
        case mode, allowed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(Mode.self, forKey: .mode)
        if let wildcard = try? container.decode(String.self, forKey: .allowed) {
            guard wildcard == "*", mode == .development else {
                throw DecodingError.dataCorruptedError(
                    forKey: .allowed, in: container,
                    debugDescription: #"only "*" (in development mode) may stand for a list of allowed plugins"#)
            }
            allowed = []
            allowsAnyID = true
        } else {
            allowed = try container.decodeIfPresent([Entry].self, forKey: .allowed) ?? []
            allowsAnyID = false
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        if allowsAnyID {
            try container.encode("*", forKey: .allowed)
        } else {
            try container.encode(allowed, forKey: .allowed)
        }
    }

    /// A policy that loads nothing: the default when `policy.json` has no `plugins` section.
    public static let denyAll = PluginPolicy(mode: .pinned, allowed: [])

    /// The built-in development policy used when no policy file is given: the bundled plugins' ids
    /// (`ids`, from the sandbox registrations), any digest, and nothing else.
    public static func builtInDevelopment(allowing ids: [String]) -> PluginPolicy {
        PluginPolicy(mode: .development, allowed: ids.map { Entry(id: $0) })
    }

    /// What the policy says about a plugin file.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// The id is not in the allow-list.
        case idNotAllowed
        /// The id is allowed, but not with this file's digest.
        case digestNotListed
    }

    /// Checks a plugin's id and its file's digest. An id pinned to digests refuses other files in
    /// either mode.
    public func evaluate(id: String, sha256: String) -> Decision {
        let entries = allowed.filter { $0.id == id }
        guard !entries.isEmpty || (mode == .development && allowsAnyID) else { return .idNotAllowed }
        let pinned = pinnedDigests(for: id)
        if pinned.isEmpty && mode == .development {
            return .allowed
        }
        return pinned.contains(sha256.lowercased()) ? .allowed : .digestNotListed
    }

    /// The lowercase digests listed for `id` (empty when none are).
    public func pinnedDigests(for id: String) -> Set<String> {
        Set(allowed.filter { $0.id == id }.flatMap { $0.sha256.map { $0.lowercased() } })
    }

    /// Whether a file with this digest may be opened at all before its manifest is known.
    ///
    /// In pinned mode only files whose digest is listed for some allowed id are ever `dlopen`ed, so an
    /// unknown file never runs its initialisers inside the host. Development mode opens any file.
    public func mayOpen(sha256: String) -> Bool {
        guard mode == .pinned else { return true }
        let digest = sha256.lowercased()
        return allowed.contains { $0.sha256.contains { $0.lowercased() == digest } }
    }
}
