import Foundation

extension RoutingValidator {
    /// Problems of a rule's strategy: weights only with `weighted` (and required by it), `max_rate_loss`
    /// only with `adaptive` and within 0…`maxRateLossLimit` percentage points.
    static func strategyProblems(_ rule: RoutingRule, maxRateLossLimit: Double) -> [(code: String, message: String)] {
        var problems: [(String, String)] = []
        switch rule.strategy {
        case .weighted where rule.weights == nil:
            problems.append(("invalid_weights", "strategy 'weighted' needs weights"))
        case .ordered, .adaptive:
            if rule.weights != nil {
                problems.append(("invalid_weights", "weights are only allowed with strategy 'weighted'"))
            }
        case .weighted:
            break
        }
        if let loss = rule.maxRateLoss {
            if rule.strategy != .adaptive {
                problems.append(("invalid_max_rate_loss", "max_rate_loss is only allowed with strategy 'adaptive'"))
            } else if !loss.isFinite || loss < 0 || loss > maxRateLossLimit {
                problems.append(
                    (
                        "invalid_max_rate_loss",
                        "max_rate_loss must be between 0 and \(maxRateLossLimit) percentage points"
                    ))
            }
        }
        return problems
    }
}
