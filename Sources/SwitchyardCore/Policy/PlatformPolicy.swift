import Foundation

/// The operator's platform policy (the sections of `policy.json` besides `plugins`). Every field has a
/// safe default, so a missing section or key means the default.
///
/// Each key is declared once, in its section's `fields` (``PolicySection``): name, type, default,
/// accepted values and a one-line description. Decoding, encoding, the range checks and the reference
/// table in docs/operations.md (``referenceTable``) are all read from those declarations.
public struct PlatformPolicy: Codable, Sendable, Equatable {
    public var failover = Failover()
    public var lifetimes = Lifetimes()
    public var limits = Limits()
    public var breaker = Breaker()
    public var janitor = Janitor()
    public var webhooks = Webhooks()
    public var server = Server()
    public var tenants = Tenants()
    public var notifications = Notifications()
    public var idempotency = Idempotency()
    public var settlement = Settlement()
    public var pluginWorkers = PluginWorkers()
    public var database = Database()
    public var caching = Caching()
    public var metrics = Metrics()
    public var adaptiveRouting = AdaptiveRouting()
    public var routingReplay = ReplayBounds()
    public var retention = Retention()
    public var disputes = DisputePolicy()
    public var overdueNotifications = OverdueNotifications()
    public var operatorSSO = OperatorSingleSignOn()

    public init() {}

    /// Every section, in the order they are read and documented.
    static let sections: [SectionEntry] = [
        .init(\.failover), .init(\.lifetimes), .init(\.limits), .init(\.breaker), .init(\.janitor),
        .init(\.webhooks), .init(\.server), .init(\.tenants), .init(\.notifications, answered: false),
        .init(\.idempotency, answered: false), .init(\.settlement, answered: false),
        .init(\.pluginWorkers, answered: false), .init(\.database, answered: false),
        .init(\.caching, answered: false), .init(\.metrics, answered: false),
        .init(\.adaptiveRouting, answered: false), .init(\.routingReplay, answered: false),
        .init(\.retention, answered: false), .init(\.disputes, answered: false),
        .init(\.overdueNotifications, answered: false), .init(\.operatorSSO, answered: false),
    ]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PolicyCodingKey.self)
        for section in Self.sections {
            try section.decode(&self, container)
        }
    }

    /// Writes the sections the policy has always answered with (the reload endpoint, a tenant's
    /// effective policy); the others stay out of those answers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PolicyCodingKey.self)
        for section in Self.sections where section.answered {
            try section.encode(self, &container)
        }
    }

    /// Every declared key with its section's name, in reference order.
    public static var declaredKeys: [(section: String, key: PolicyKeyDescription)] {
        sections.flatMap { section in section.fields.map { (section.name, $0) } }
    }

    /// The sections where this policy differs from `base`, each with its changed keys and their values as
    /// JSON text, in reference order: what a policy file must say to make `base` this policy.
    public func changedKeys(from base: PlatformPolicy = PlatformPolicy()) -> [(
        section: String, keys: [(key: String, text: String)]
    )] {
        Self.sections.compactMap { section in
            let keys = section.changedKeys(self, base)
            return keys.isEmpty ? nil : (section.name, keys)
        }
    }

    /// The reference table of the policy keys, as docs/operations.md shows it between its
    /// `<!-- policy-keys -->` markers.
    public static var referenceTable: String {
        (["| key | type | default | accepted | what it sets |", "|---|---|---|---|---|"]
            + declaredKeys.map { $0.key.referenceRow(section: $0.section) }).joined(separator: "\n")
    }

    /// One section of the platform policy: where it is held and how it is read and written.
    struct SectionEntry: Sendable {
        let name: String
        let answered: Bool
        let fields: [PolicyKeyDescription]
        let changedKeys: @Sendable (PlatformPolicy, PlatformPolicy) -> [(key: String, text: String)]
        let decode: @Sendable (inout PlatformPolicy, KeyedDecodingContainer<PolicyCodingKey>) throws -> Void
        let encode: @Sendable (PlatformPolicy, inout KeyedEncodingContainer<PolicyCodingKey>) throws -> Void

        init<Section: PolicySection>(
            _ path: WritableKeyPath<PlatformPolicy, Section> & Sendable, answered: Bool = true
        ) {
            let key = PolicyCodingKey(Section.name)
            name = Section.name
            self.answered = answered
            fields = Section.fields.map(\.description)
            changedKeys = { policy, base in policy[keyPath: path].changedKeys(from: base[keyPath: path]) }
            decode = { policy, container in
                if let section = try container.decodeIfPresent(Section.self, forKey: key) {
                    policy[keyPath: path] = section
                }
            }
            encode = { policy, container in try container.encode(policy[keyPath: path], forKey: key) }
        }
    }
}
