import CSwitchyardPlugin

extension PluginManifest {
    /// The ABI version this ProviderKit exports, which a plugin built with it declares.
    public static let currentABIVersion = UInt32(SWITCHYARD_PLUGIN_ABI_VERSION)

    /// A manifest for a plugin built with this ProviderKit: its ABI version is ``currentABIVersion``, any
    /// country is accepted unless `countries` says otherwise, and no access token is used unless
    /// `usesAccessToken` says so.
    public init(
        id: String, provider: String, version: String, flows: [Flow], methods: [String], currencies: [String],
        honoursIdempotencyKey: Bool, usesAccessToken: Bool = false, countries: [String] = [],
        credentials: [CredentialField]
    ) {
        self.init(
            id: id, version: version, provider: provider, abiVersion: Self.currentABIVersion, flows: flows,
            methods: methods, countries: countries, currencies: currencies,
            honoursIdempotencyKey: honoursIdempotencyKey, usesAccessToken: usesAccessToken,
            credentials: credentials)
    }
}
