import SwitchyardCrypto

/// A credential or token a plugin holds for one call.
///
/// Printing it never shows the value: `description`, `debugDescription`, string interpolation, `dump` and
/// `Codable` encoding all give ``redacted``. Use the value explicitly with ``reveal()`` or ``withValue(_:)``,
/// only where it is sent or used to sign.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable, Codable
{
    /// What every printed or encoded form of a secret shows.
    public static let redacted = "[redacted]"

    private let value: String

    /// Wraps a value.
    public init(_ value: String) {
        self.value = value
    }

    /// The value itself, for the one place that sends or signs with it. Never log it.
    public func reveal() -> String {
        value
    }

    /// Runs `body` with the value, for the one place that sends or signs with it.
    public func withValue<Result>(_ body: (String) throws -> Result) rethrows -> Result {
        try body(value)
    }

    /// Whether the value is empty.
    public var isEmpty: Bool { value.isEmpty }

    public var description: String { Self.redacted }
    public var debugDescription: String { "Secret(\(Self.redacted))" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Compares two secrets in constant time.
    public static func == (lhs: Secret, rhs: Secret) -> Bool {
        constantTimeEquals(lhs.value, rhs.value)
    }

    /// Decodes a secret from a plain string.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes ``redacted``, never the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.redacted)
    }
}
