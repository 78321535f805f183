import Foundation

/// The whole `policy.json` as this module sees it: only the sections it owns are read, and other keys
/// are left to the modules that own them (the application refuses keys that no module reads).
public struct PolicyFile: Codable, Sendable, Equatable {
    /// Which plugins may load. ``PluginPolicy/denyAll`` when the section is missing.
    public var plugins: PluginPolicy

    public init(plugins: PluginPolicy) {
        self.plugins = plugins
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        plugins = try container.decodeIfPresent(PluginPolicy.self, forKey: .plugins) ?? .denyAll
    }

    /// Decodes a policy from JSON bytes.
    public static func decode(_ data: Data) throws -> PolicyFile {
        try JSONDecoder().decode(PolicyFile.self, from: data)
    }

    /// Reads and decodes the policy file at `path`.
    public static func load(path: String) throws -> PolicyFile {
        try decode(Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
