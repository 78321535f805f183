import Foundation
import SwitchyardCore

/// What `routing/simulate` answers: the chosen account, the ordered fallbacks, why every other account
/// was skipped, and how each rule was looked at. No provider is called.
struct SimulationBody: Encodable {
    struct AccountRef: Encodable {
        var accountId: String
        var name: String?
        var plugin: String?
        var reason: String?

        enum CodingKeys: String, CodingKey {
            case accountId = "account_id"
            case name, plugin, reason
        }
    }

    struct RuleRef: Encodable {
        var id: String
        var name: String
        var matched: Bool
        var reason: String?
    }

    struct Failure: Encodable {
        var code: String
        var message: String
        var status: Int
    }

    var routingVersion: Int?
    var matchedRule: RuleRef?
    var chosen: AccountRef?
    var fallbacks: [AccountRef]
    var skipped: [AccountRef]
    var weighted: Bool
    var strategy: RoutingStrategy?
    var ranking: [RoutingDecision.Rank]
    var rules: [RuleRef]
    var error: Failure?

    enum CodingKeys: String, CodingKey {
        case routingVersion = "routing_version"
        case matchedRule = "matched_rule"
        case chosen, fallbacks, skipped, weighted, strategy, ranking, rules, error
    }

    init(_ explanation: RoutingExplanation) {
        func ref(_ id: UUID, reason: String? = nil) -> AccountRef {
            let label = explanation.labels[id]
            return AccountRef(
                accountId: id.uuidString.lowercased(), name: label?.name, plugin: label?.plugin, reason: reason)
        }
        rules = explanation.rules.map {
            RuleRef(id: $0.ruleId.uuidString.lowercased(), name: $0.ruleName, matched: $0.matched, reason: $0.reason)
        }
        matchedRule = rules.first(where: \.matched)
        let decision = explanation.decision
        routingVersion = decision?.version
        chosen = decision?.candidates.first.map { ref($0) }
        fallbacks = (decision?.candidates.dropFirst()).map { $0.map { ref($0) } } ?? []
        skipped =
            explanation.skipped.map { ref($0.accountId, reason: $0.reason) }
            + explanation.otherAccounts.map { ref($0.accountId, reason: $0.reason) }
        weighted = decision?.weighted ?? false
        strategy = decision?.strategy
        ranking = decision?.ranking ?? []
        error = explanation.failure.map {
            Failure(code: $0.code.rawValue, message: $0.message, status: $0.code.httpStatus.code)
        }
    }
}
