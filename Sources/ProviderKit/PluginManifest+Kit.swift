import CSwitchyardPlugin

extension PluginManifest {
    /// The ABI version this ProviderKit exports, which a plugin built with it declares.
    public static let currentABIVersion = UInt32(SWITCHYARD_PLUGIN_ABI_VERSION)

    /// A manifest for a plugin built with this ProviderKit: its ABI version is ``currentABIVersion``, any
    /// country is accepted unless `countries` says otherwise, and no access token is used unless
    /// `usesAccessToken` says so; `methodSupport` declares per method what the manifest-wide lists do not.
    /// It ``returnsPromptly``: the kit's entry points never wait.
    public init(
        id: String, provider: String, version: String, flows: [Flow], methods: [String], currencies: [String],
        honoursIdempotencyKey: Bool, usesAccessToken: Bool = false, countries: [String] = [],
        credentials: [CredentialField], methodSupport: [MethodSupport]? = nil
    ) {
        self.init(
            id: id, version: version, provider: provider, abiVersion: Self.currentABIVersion, flows: flows,
            methods: methods, countries: countries, currencies: currencies,
            honoursIdempotencyKey: honoursIdempotencyKey, usesAccessToken: usesAccessToken,
            credentials: credentials, methodSupport: methodSupport)
        // The kit's entry points only start a task, cancel one or resume one: none waits.
        returnsPromptly = true
    }

    /// What the plugin supports of `method`, nil when it does not offer the method at all. Its countries
    /// and currencies are the method's own when declared, else the manifest's; a method without a
    /// declaration can be neither stored nor captured later, and says nothing of what the app needs.
    public func support(for method: String) -> MethodSupport? {
        guard methods.contains(method) else { return nil }
        var support =
            methodSupport?.first { $0.method == method }
            ?? MethodSupport(method: method, storable: false, delayedCapture: false)
        if support.countries.isEmpty { support.countries = countries }
        if support.currencies.isEmpty { support.currencies = currencies }
        return support
    }
}
