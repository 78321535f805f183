import Foundation

/// Which file serves a plugin id claimed by several files: the same answer whatever the files' names
/// or the order they were read in.
///
/// 1. Files whose digest is pinned for the id (listed in the policy) outrank the others.
/// 2. Among the remaining claimants, the file already serving the id keeps serving it.
/// 3. Otherwise a single claimant wins; several are ambiguous and every one of them is refused
///    `duplicate_id` (the id stays unserved until the operator removes or pins one).
public struct PluginIDDecision: Sendable, Equatable {
    /// One file's claim on an id.
    public struct Claim: Sendable, Equatable {
        /// The plugin file in the plugins directory.
        public var file: String
        /// Its lowercase hex SHA-256.
        public var sha256: String

        public init(file: String, sha256: String) {
            self.file = file
            self.sha256 = sha256
        }
    }

    /// The file that serves the id, if any.
    public var winner: String?
    /// The claimants refused, with why, by file.
    public var refused: [String: PluginRefusal]

    public init(winner: String?, refused: [String: PluginRefusal]) {
        self.winner = winner
        self.refused = refused
    }

    /// Decides who serves `id` among `claims`.
    ///
    /// - Parameters:
    ///   - id: The plugin id claimed.
    ///   - claims: Every file claiming it (files already serving it included).
    ///   - serving: The file serving it now, if any.
    ///   - pinned: The lowercase digests the policy lists for the id.
    public static func decide(id: String, claims: [Claim], serving: String?, pinned: Set<String>) -> PluginIDDecision {
        let ordered = claims.sorted { $0.file < $1.file }
        var contenders = ordered
        if ordered.contains(where: { pinned.contains($0.sha256.lowercased()) }) {
            contenders = ordered.filter { pinned.contains($0.sha256.lowercased()) }
        }
        let winner: String?
        if let serving, contenders.contains(where: { $0.file == serving }) {
            winner = serving
        } else if contenders.count == 1 {
            winner = contenders[0].file
        } else {
            winner = nil
        }
        var refused: [String: PluginRefusal] = [:]
        for claim in ordered where claim.file != winner {
            let reason: String
            if let winner {
                reason = "plugin id \(id) is provided by \(Self.name(winner))"
            } else {
                let others = ordered.filter { $0.file != claim.file }.map { Self.name($0.file) }
                reason =
                    "plugin id \(id) is also claimed by \(others.joined(separator: ", ")); none serves it until "
                    + "one is removed or its digest pinned"
            }
            refused[claim.file] = PluginRefusal(.duplicateID, reason)
        }
        return PluginIDDecision(winner: winner, refused: refused)
    }

    private static func name(_ file: String) -> String {
        URL(fileURLWithPath: file).lastPathComponent
    }
}
