/// A merchant's own key-value pairs on a resource (`metadata`), stored and returned as given, never read by
/// Switchyard: at most ``maximumKeys`` keys of 1 to ``maximumKeyLength`` characters without control
/// characters, each with a string value of at most ``maximumValueLength`` characters.
///
/// Metadata is set when a resource is created and not changed afterwards.
public struct Metadata: Sendable, Equatable, Codable {
    /// The pairs, by key.
    public var values: [String: String]

    /// The most keys one resource may carry.
    public static let maximumKeys = 50
    /// The longest key, in characters.
    public static let maximumKeyLength = 40
    /// The longest value, in characters.
    public static let maximumValueLength = 500

    /// No pairs.
    public static let empty = Metadata(unchecked: [:])

    /// Checks `values`; throws `400 invalid_metadata` naming the offending field (`metadata.order_no`) or
    /// `metadata` itself (too many keys).
    public init(_ values: [String: String]) throws(CoreError) {
        guard values.count <= Self.maximumKeys else {
            throw CoreError(
                .invalidMetadata, "metadata may have at most \(Self.maximumKeys) keys", param: "metadata")
        }
        for key in values.keys.sorted() {
            let shown = key.count <= Self.maximumKeyLength ? key : String(key.prefix(Self.maximumKeyLength)) + "…"
            guard !key.isEmpty, key.count <= Self.maximumKeyLength else {
                throw CoreError(
                    .invalidMetadata, "metadata keys must be 1 to \(Self.maximumKeyLength) characters",
                    param: "metadata.\(shown)")
            }
            guard !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw CoreError(
                    .invalidMetadata, "metadata keys must not contain control characters", param: "metadata")
            }
            guard (values[key] ?? "").count <= Self.maximumValueLength else {
                throw CoreError(
                    .invalidMetadata,
                    "the metadata value of '\(key)' must be at most \(Self.maximumValueLength) characters",
                    param: "metadata.\(key)")
            }
        }
        self.values = values
    }

    /// Pairs already checked (read back from storage).
    public init(unchecked values: [String: String]) {
        self.values = values
    }

    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: String].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// Whether every pair of `filter` is among these pairs (a search by metadata).
    public func contains(_ filter: [String: String]) -> Bool {
        filter.allSatisfy { values[$0.key] == $0.value }
    }
}

/// A merchant's free-text `description` of a resource: at most ``maximumLength`` characters.
public enum ResourceDescription {
    /// The longest description, in characters.
    public static let maximumLength = 1000

    /// Checks `text`; throws `400 invalid_description` (`param` `description`) when it is too long.
    public static func validate(_ text: String?) throws(CoreError) {
        guard let text, text.count > maximumLength else { return }
        throw CoreError(
            .invalidDescription, "description must be at most \(maximumLength) characters", param: "description")
    }
}
