/// What a plugin declares about itself. The host checks it against `policy.json` before loading.
public struct PluginManifest: Codable, Sendable, Equatable {
    /// Stable plugin identifier, e.g. `citcon`. Provider accounts name their plugin by it.
    public var id: String
    /// The plugin's own version, e.g. `1.0.0`.
    public var version: String
    /// Human-readable provider name.
    public var provider: String
    /// The ABI version the plugin was compiled against.
    public var abiVersion: UInt32
    /// The flows the plugin implements.
    public var flows: [Flow]
    /// Payment methods, lower case (e.g. `alipay`, `card`).
    public var methods: [String]
    /// ISO 3166-1 alpha-2 countries; empty means any.
    public var countries: [String]
    /// ISO 4217 currencies; empty means any.
    public var currencies: [String]
    /// Whether the provider honours an idempotency key (header or request id) on money-moving calls.
    public var honoursIdempotencyKey: Bool
    /// Whether the flows need an access token obtained through the `accessToken` flow.
    public var usesAccessToken: Bool
    /// The credential fields a provider account must supply.
    public var credentials: [CredentialField]
    /// What the plugin declares per method (countries, currencies, amount limits, capabilities, what the
    /// app needs); absent in manifests of plugins built before it existed.
    public var methodSupport: [MethodSupport]?
    /// Whether the plugin answers ``Flow/answerDispute`` (accepting a dispute, submitting evidence) through
    /// the provider's API. Not listed in ``flows``: a host older than the flow would refuse the manifest.
    public var answersDisputes: Bool?
    /// Whether `invoke`, `cancel` and every completion the plugin hands to `http_send` return at once: they
    /// only start or resume work that runs on the plugin's own threads. A worker then calls them on the
    /// thread that reads its socket instead of handing each frame to a thread pool first. Absent (false) in
    /// manifests built before it existed and in plugins that do not say so; every plugin built with
    /// ProviderKit says so.
    public var returnsPromptly: Bool?

    public init(
        id: String, version: String, provider: String, abiVersion: UInt32, flows: [Flow], methods: [String],
        countries: [String], currencies: [String], honoursIdempotencyKey: Bool, usesAccessToken: Bool,
        credentials: [CredentialField], methodSupport: [MethodSupport]? = nil
    ) {
        self.id = id
        self.version = version
        self.provider = provider
        self.abiVersion = abiVersion
        self.flows = flows
        self.methods = methods
        self.countries = countries
        self.currencies = currencies
        self.honoursIdempotencyKey = honoursIdempotencyKey
        self.usesAccessToken = usesAccessToken
        self.credentials = credentials
        self.methodSupport = methodSupport
    }
}

extension PluginManifest {
    /// Whether the plugin may be invoked with `flow`: one of its ``flows``, or ``Flow/answerDispute`` when it
    /// ``answersDisputes``.
    public func offers(_ flow: Flow) -> Bool {
        flows.contains(flow) || (flow == .answerDispute && answersDisputes == true)
    }
}

/// One credential field of a provider account.
public struct CredentialField: Codable, Sendable, Equatable {
    /// Field name, e.g. `private_key`.
    public var name: String
    /// Secret fields are encrypted at rest, write-only in the API and never logged.
    public var secret: Bool
    /// Whether an account must supply it.
    public var required: Bool
    /// Values of this field that the provider publishes for its test system (a shared test merchant, its
    /// documented key): anyone knows them, so the host refuses them in an account whose environment moves
    /// real money (`credential_is_public_test_value`). Absent in manifests built before it existed.
    public var publicTestValues: [String]?

    public init(name: String, secret: Bool, required: Bool = true, publicTestValues: [String]? = nil) {
        self.name = name
        self.secret = secret
        self.required = required
        self.publicTestValues = publicTestValues
    }
}
