import Foundation

/// Test or live: whether the money is real. A provider account's `environment` decides its mode; an API key
/// is created in one mode and routes only to accounts of that mode; every payment, refund, stored payment
/// method and webhook event made through it carries the mode as `livemode`.
public enum Livemode {
    /// The account environments whose payments move real money.
    public static let liveEnvironments: Set<String> = ["production", "live"]
    /// The account environments of a provider's test systems.
    public static let testEnvironments: Set<String> = ["sandbox", "test"]

    /// Whether an account of `environment` is live (true) or test (false); nil for an environment that is
    /// neither (refused when an account is created or changed).
    public static func of(environment: String) -> Bool? {
        if liveEnvironments.contains(environment) { return true }
        if testEnvironments.contains(environment) { return false }
        return nil
    }

    /// Checks an account's environment; `400 invalid_environment` names the accepted values.
    public static func validate(environment: String) throws {
        guard of(environment: environment) == nil else { return }
        let accepted = (testEnvironments.sorted() + liveEnvironments.sorted()).joined(separator: ", ")
        throw CoreError(
            .invalidEnvironment, "environment must be one of \(accepted)", param: "environment")
    }

    /// `live` or `test`, as messages and key prefixes name the mode.
    public static func name(_ livemode: Bool) -> String { livemode ? "live" : "test" }

    /// The start of a new key's secret: `sk_live_` or `sk_test_`. Keys made before modes existed start with
    /// `sk_` only and are test keys.
    public static func keyPrefix(_ livemode: Bool) -> String { "sk_\(name(livemode))_" }
}

extension ProviderAccount {
    /// Whether the account moves real money (its environment is live); an unknown environment is test.
    public var livemode: Bool { Livemode.of(environment: environment) ?? false }
}

extension APIKey {
    /// A new key's secret: its mode's prefix (``Livemode/keyPrefix(_:)``), then `random`.
    public static func secret(livemode: Bool, random: String) -> String { Livemode.keyPrefix(livemode) + random }

    /// The start of a new key's secret shown to identify the key: its mode's prefix and eight characters more.
    public static func shownPrefix(of secret: String, livemode: Bool) -> String {
        String(secret.prefix(Livemode.keyPrefix(livemode).count + 8))
    }
}

extension TenantRepository {
    /// Creates a test key.
    public func createAPIKey(tenant: UUID, name: String, scopes: [APIKeyScope], expiresAt: Date?, actor: String)
        async throws -> CreatedAPIKey
    {
        try await createAPIKey(
            tenant: tenant, name: name, scopes: scopes, expiresAt: expiresAt, livemode: false, actor: actor)
    }
}
