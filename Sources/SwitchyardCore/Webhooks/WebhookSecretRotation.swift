import Foundation

/// A webhook endpoint's secret rotation: the new secret signs every delivery at once, and the replaced one
/// keeps signing beside it until its overlap ends, so receivers can switch secrets without refusing
/// deliveries in between.
public struct WebhookSecretRotation: Sendable, Equatable {
    /// The longest overlap a rotation may ask for: seven days.
    public static let maximumOverlapSeconds = 7 * 86_400

    /// When the replaced secret stops signing; nil when it stops at once (an overlap of 0).
    public var previousExpiresAt: Date?

    /// The rotation at `now` with an overlap of `requestedSeconds` (the policy's `defaultSeconds` when
    /// absent). Throws `400 invalid_field` outside 0…``maximumOverlapSeconds``.
    public init(requestedSeconds: Int?, defaultSeconds: Int, now: Date) throws {
        let seconds = requestedSeconds ?? min(max(defaultSeconds, 0), Self.maximumOverlapSeconds)
        guard (0...Self.maximumOverlapSeconds).contains(seconds) else {
            throw CoreError(
                .invalidField, "expires_in_seconds must be an integer from 0 to \(Self.maximumOverlapSeconds)")
        }
        previousExpiresAt = seconds == 0 ? nil : now.addingTimeInterval(TimeInterval(seconds))
    }

    /// The secrets that sign a delivery sent at `now`: the current one, then the previous one while its
    /// overlap lasts.
    public static func signingSecrets(current: String, previous: String?, previousExpiresAt: Date?, now: Date)
        -> [String]
    {
        guard let previous, let previousExpiresAt, now < previousExpiresAt else { return [current] }
        return [current, previous]
    }
}
