import Foundation

extension PlatformPolicy {
    /// How the janitor watches payments waiting for a capture: how long a provider holds an authorisation,
    /// and at which shares of that hold an `authorized` payment is synced (see ``AuthorizationHold``).
    public struct Settlement: Codable, Sendable, Equatable {
        /// How long an authorisation is held at the provider, in hours (default seven days).
        public var authorizationHoldHours: Int = 168
        /// The points of the hold, in percent of it, at which an `authorized` payment is synced once each.
        public var authorizationSyncPercent: [Int] = [50, 90]

        enum CodingKeys: String, CodingKey {
            case authorizationHoldHours = "authorization_hold_hours"
            case authorizationSyncPercent = "authorization_sync_percent"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Settlement()
            authorizationHoldHours =
                try c.decodeIfPresent(Int.self, forKey: .authorizationHoldHours) ?? defaults.authorizationHoldHours
            authorizationSyncPercent =
                try c.decodeIfPresent([Int].self, forKey: .authorizationSyncPercent)
                ?? defaults.authorizationSyncPercent
            guard Self.holdHoursRange.contains(authorizationHoldHours) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .authorizationHoldHours, in: c,
                    debugDescription: "settlement.authorization_hold_hours must be between "
                        + "\(Self.holdHoursRange.lowerBound) and \(Self.holdHoursRange.upperBound)")
            }
            guard (1...Self.maximumSyncPoints).contains(authorizationSyncPercent.count),
                authorizationSyncPercent.allSatisfy(Self.percentRange.contains)
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .authorizationSyncPercent, in: c,
                    debugDescription: "settlement.authorization_sync_percent must hold 1 to "
                        + "\(Self.maximumSyncPoints) values between 1 and 100")
            }
        }

        /// The hold values accepted in `policy.json`, in hours (one hour to 31 days).
        public static let holdHoursRange = 1...744
        /// The sync points accepted, in percent of the hold.
        public static let percentRange = 1...100
        /// The most sync points of one hold.
        public static let maximumSyncPoints = 10

        /// The `settlement` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Settlement {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Settlement.self, forKey: .settlement)
                ?? Settlement()
        }

        private enum SectionKey: String, CodingKey {
            case settlement
        }
    }
}
