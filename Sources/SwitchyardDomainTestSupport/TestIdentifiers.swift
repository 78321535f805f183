import Foundation
import SwitchyardCore

/// Identifier generators for tests.
public enum TestIdentifiers {
    /// Random ids, like production's (the system generator, not a cryptographic one).
    public static let random = IdentifierGenerator(randomBytes: { count in
        (0..<count).map { _ in UInt8.random(in: 0...255) }
    })
}
