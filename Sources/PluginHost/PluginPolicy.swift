/// Which plugins may load: the `plugins` section of `policy.json`.
///
/// ```json
/// { "mode": "pinned", "allowed": [ { "id": "citcon", "sha256": ["<hex>"] } ] }
/// ```
/// - `pinned`: a plugin loads only if its id is allowed and its file's SHA-256 is listed for that id.
/// - `development`: any id in `allowed` loads with any digest; when `allowed` is empty, any id loads.
public struct PluginPolicy: Codable, Sendable, Equatable {
    /// How strictly plugin files are checked.
    public enum Mode: String, Codable, Sendable {
        /// Ids and digests must both be listed.
        case pinned
        /// Digests are not checked; an empty allow-list allows any id.
        case development
    }

    /// One allowed plugin id and the digests of its allowed files.
    public struct Entry: Codable, Sendable, Equatable {
        /// The plugin id, as its manifest declares it.
        public var id: String
        /// Lowercase or uppercase hex SHA-256 digests of the allowed `.so` files.
        public var sha256: [String]
        /// Where the plugin runs (`process` unless the policy says `in_process`).
        public var isolation: PluginIsolation = .process

        public init(id: String, sha256: [String] = []) {
            self.id = id
            self.sha256 = sha256
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            sha256 = try container.decodeIfPresent([String].self, forKey: .sha256) ?? []
            isolation = try container.decodeIfPresent(PluginIsolation.self, forKey: .isolation) ?? .process
        }
    }

    /// How strictly files are checked.
    public var mode: Mode
    /// The allowed ids, with their allowed digests.
    public var allowed: [Entry]

    public init(mode: Mode, allowed: [Entry] = []) {
        self.mode = mode
        self.allowed = allowed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(Mode.self, forKey: .mode)
        allowed = try container.decodeIfPresent([Entry].self, forKey: .allowed) ?? []
    }

    /// A policy that loads nothing: the default when `policy.json` has no `plugins` section.
    public static let denyAll = PluginPolicy(mode: .pinned, allowed: [])

    /// What the policy says about a plugin file.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// The id is not in the allow-list.
        case idNotAllowed
        /// The id is allowed, but not with this file's digest.
        case digestNotListed
    }

    /// Checks a plugin's id and its file's digest.
    public func evaluate(id: String, sha256: String) -> Decision {
        let entries = allowed.filter { $0.id == id }
        switch mode {
        case .development:
            return allowed.isEmpty || !entries.isEmpty ? .allowed : .idNotAllowed
        case .pinned:
            guard !entries.isEmpty else { return .idNotAllowed }
            let digest = sha256.lowercased()
            return entries.contains { $0.sha256.contains { $0.lowercased() == digest } } ? .allowed : .digestNotListed
        }
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
