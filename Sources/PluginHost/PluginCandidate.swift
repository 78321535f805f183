import Foundation
import ProviderKit

/// A plugin file that a scanner examined and the policy accepted, not yet opened by the server.
struct PluginCandidate: Sendable {
    /// The plugin file in the plugins directory.
    var file: String
    /// Lowercase hex SHA-256 of the bytes that were copied and scanned.
    var sha256: String
    /// The private copy that was scanned (and that is opened once the id is decided).
    var copy: String
    /// The manifest the scanner read.
    var manifest: PluginManifest
    /// What the scanner found in the entry table.
    var table: PluginScanReport.Table

    var id: String { manifest.id }
}
