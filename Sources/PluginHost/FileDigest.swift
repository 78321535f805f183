import Foundation
import SwitchyardCrypto

/// SHA-256 digests of plugin files, as policy.json lists them.
enum FileDigest {
    /// Lowercase hex SHA-256 of `data`.
    static func sha256Hex(_ data: Data) -> String {
        Hex.encode(SHA2.sha256(data))
    }
}
