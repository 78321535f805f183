import Foundation

/// Where the recorded answers behind the authorisation statistics are deleted once no window can count
/// them. A payment repository that records them conforms; the janitor prunes through it.
public protocol RoutingOutcomeRetention: Sendable {
    /// Deletes answers decided before `cutoff`, at most `limit` of them; returns how many.
    func pruneRoutingOutcomes(before cutoff: Date, limit: Int) async throws -> Int
}
