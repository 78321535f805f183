import Foundation

/// A version of the merchant API (`/v1`), named by the date it was released (`2026-06-01`).
///
/// Each tenant is pinned to the version current when its first API key was created; a request may ask
/// for another with the `Switchyard-Version` header. ``all`` is the one table of versions and of the
/// changes each introduces; code that behaves differently per version asks ``has(_:)`` about a ``Change``,
/// never compares versions itself.
public struct APIVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version's date, `YYYY-MM-DD`, as sent and answered in the `Switchyard-Version` header.
    public let name: String
    /// The changes this version introduces over the one before it.
    public let changes: [Change]

    /// A behaviour that differs between versions: absent before the version that introduces it, present
    /// from then on.
    public enum Change: String, Sendable, CaseIterable {
        /// A JSON body field the endpoint does not know is refused (`400 unknown_parameter`) instead of
        /// ignored.
        case unknownFieldsRefused = "unknown_fields_refused"
        /// `GET /v1/payments` renders each payment without its attempts, operations and routing decision
        /// unless `expand[]` asks for them.
        case listsOmitHeavyParts = "lists_omit_heavy_parts"

        /// One line describing the change, for documentation and error messages.
        public var summary: String {
            switch self {
            case .unknownFieldsRefused:
                "a request body field the endpoint does not know is refused with 400 unknown_parameter"
            case .listsOmitHeavyParts:
                "GET /v1/payments omits attempts, operations and routing unless expand[] asks for them"
            }
        }
    }

    /// The behaviour of the API before versions existed.
    public static let v2026_06_01 = APIVersion(name: "2026-06-01", changes: [])
    /// Strict bodies and light lists.
    public static let v2026_12_01 = APIVersion(
        name: "2026-12-01", changes: [.unknownFieldsRefused, .listsOmitHeavyParts])

    /// Every version, oldest first.
    public static let all: [APIVersion] = [v2026_06_01, v2026_12_01]

    /// The oldest version: that of tenants pinned before versions existed.
    public static var oldest: APIVersion { all[0] }

    /// The newest version: new tenants are pinned to it when their first API key is created.
    public static var current: APIVersion { all[all.count - 1] }

    /// The known version named `name`, or nil (a malformed or unknown name).
    public init?(_ name: String) {
        guard let known = Self.all.first(where: { $0.name == name }) else { return nil }
        self = known
    }

    private init(name: String, changes: [Change]) {
        self.name = name
        self.changes = changes
    }

    /// The version a tenant is pinned to: its stored name, the oldest version when it has none (a tenant
    /// created before versions existed) or names one this build does not know.
    public static func pinned(_ name: String?) -> APIVersion {
        name.flatMap(APIVersion.init) ?? oldest
    }

    /// Whether this version has `change`: it is introduced by this version or an older one.
    public func has(_ change: Change) -> Bool {
        Self.all.contains { $0 <= self && $0.changes.contains(change) }
    }

    public static func < (lhs: APIVersion, rhs: APIVersion) -> Bool { lhs.name < rhs.name }

    public static func == (lhs: APIVersion, rhs: APIVersion) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public var description: String { name }
}
