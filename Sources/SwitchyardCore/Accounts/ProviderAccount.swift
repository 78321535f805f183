import Foundation

/// A tenant's account at a provider, served by one plugin.
public struct ProviderAccount: Codable, Sendable, Equatable {
    public var id: UUID
    public var tenantId: UUID
    public var name: String
    /// The plugin id (manifest `id`) that serves this account.
    public var pluginId: String
    /// `sandbox`, `test` or `live`.
    public var environment: String
    /// The provider API's base URL for this account.
    public var baseURL: String
    /// Credential fields; secret ones are decrypted only when a provider call needs them.
    public var credentials: [String: String]
    /// Names of the credential fields that are secret (write-only in the API).
    public var secretFields: [String]
    /// Non-secret per-account options.
    public var options: [String: String]
    public var enabled: Bool
    public var createdAt: Date
    /// What the account charges per payment, by currency code; adaptive routing compares these.
    public var fees: [String: FeeModel] = [:]

    public init(
        id: UUID, tenantId: UUID, name: String, pluginId: String, environment: String, baseURL: String,
        credentials: [String: String], secretFields: [String], options: [String: String] = [:], enabled: Bool,
        createdAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.name = name
        self.pluginId = pluginId
        self.environment = environment
        self.baseURL = baseURL
        self.credentials = credentials
        self.secretFields = secretFields
        self.options = options
        self.enabled = enabled
        self.createdAt = createdAt
    }

    /// The credentials as the API shows them: secret values masked.
    public var maskedCredentials: [String: String] {
        var masked: [String: String] = [:]
        for (name, value) in credentials {
            masked[name] = secretFields.contains(name) ? Self.mask(value) : value
        }
        return masked
    }

    /// Masks a secret, keeping at most its last four characters when it is long enough.
    public static func mask(_ secret: String) -> String {
        guard secret.count >= 12 else { return "••••" }
        return "••••" + secret.suffix(4)
    }
}
