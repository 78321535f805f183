/// What the embedded default creates for one emulator: a sandbox merchant and the provider account
/// (with one routing rule) of the demo tenant that talks to it.
public struct SandboxDemo: Sendable {
    /// The prefix of this provider's fields in `demo.json`, e.g. `citcon` (`citcon_account_id`).
    public var stateKey: String
    /// The account's display name.
    public var accountName: String
    /// The account's credentials by the plugin's credential field names (the embedded default checks
    /// them against the plugin's manifest, which also says which of them are secret).
    public var credentials: [String: String]
    /// The account's options.
    public var options: [String: String]
    /// The demo tenant's routing rule to the account.
    public var route: Route
    /// More `demo.json` fields (merchant ids a person trying the demo needs), e.g. `citcon_sandbox_merchant`.
    public var state: [String: String]
    let configure: @Sendable (inout SandboxConfiguration) -> Void

    /// What is wrong with ``credentials`` for a plugin declaring `fields` (of which `required` must be
    /// supplied), or nil when every credential is a declared field and every required field is there.
    public func credentialMismatch(fields: [String], required: [String]) -> String? {
        let unknown = credentials.keys.filter { !fields.contains($0) }.sorted()
        let missing = required.filter { credentials[$0] == nil }.sorted()
        guard !unknown.isEmpty || !missing.isEmpty else { return nil }
        let parts = [
            unknown.isEmpty ? nil : "not in the plugin's manifest: \(unknown.joined(separator: ", "))",
            missing.isEmpty ? nil : "required by the plugin's manifest but missing: \(missing.joined(separator: ", "))",
        ]
        return parts.compactMap { $0 }.joined(separator: "; ")
    }

    /// Adds the demo merchant to the emulator's settings in `configuration`.
    public func configure(_ configuration: inout SandboxConfiguration) {
        configure(&configuration)
    }

    /// A routing rule of the demo tenant.
    public struct Route: Sendable, Equatable {
        /// The rule's name.
        public var name: String
        /// ISO 3166-1 alpha-2 countries the rule matches (empty: any).
        public var countries: [String] = []
        /// ISO 4217 currencies the rule matches (empty: any).
        public var currencies: [String] = []
        /// Payment methods the rule matches (empty: any).
        public var methods: [String] = []

        /// How many of the rule's dimensions are restricted: a narrower rule must come before a wider one
        /// it overlaps, since the first matching rule wins.
        public var specificity: Int {
            [countries, currencies, methods].filter { !$0.isEmpty }.count
        }
    }
}

/// Where the embedded default keeps its demo merchants' secrets, so they stay the same across restarts.
public struct SandboxDemoSecrets: Sendable {
    private let read: @Sendable (String, () -> String) throws -> String

    /// Creates a store over `read(name, make)`, which returns the secret kept under `name`, keeping
    /// `make()` there first when there is none.
    public init(_ read: @escaping @Sendable (String, () -> String) throws -> String) {
        self.read = read
    }

    /// The secret kept under `name` (a file name in the data directory, e.g. `sandbox-citcon-ipn-secret`),
    /// made by `make` the first time.
    public func secret(_ name: String, make: () -> String) throws -> String {
        try read(name, make)
    }
}

extension SandboxConfiguration {
    /// The configuration of the embedded default's sandbox: every emulator with its demo merchant.
    public static func demo(_ demos: [SandboxDemo]) -> SandboxConfiguration {
        var configuration = SandboxConfiguration()
        for demo in demos { demo.configure(&configuration) }
        return configuration
    }
}
