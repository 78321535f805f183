import ProviderKit

extension __Name__Provider {
    /// The plugin's manifest: what the host checks against its policy and routes by.
    public static let manifest = PluginManifest(
        id: "__id__", provider: "__Name__", version: "0.1.0",
        flows: [.authorize, .sync, .refund, .notification],
        methods: ["card"],
        currencies: ["USD", "EUR"],
        honoursIdempotencyKey: true,
        credentials: Credential.manifestFields
    )

    /// The account's credential fields (``__Name__Credential``).
    typealias Credential = __Name__Credential
}
