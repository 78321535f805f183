import Foundation

/// One problem found in a routing configuration, naming the rule it is about.
public struct RoutingIssue: Codable, Sendable, Equatable {
    /// Errors refuse the configuration; warnings are reported with it.
    public enum Severity: String, Codable, Sendable {
        case error
        case warning
    }

    /// Position of the rule (0-based).
    public var ruleIndex: Int
    public var ruleName: String
    /// A stable machine-readable code (`unknown_account`, `rule_unreachable`, `method_unsupported`…).
    public var code: String
    public var message: String
    public var severity: Severity

    public init(ruleIndex: Int, ruleName: String, code: String, message: String, severity: Severity = .error) {
        self.ruleIndex = ruleIndex
        self.ruleName = ruleName
        self.code = code
        self.message = message
        self.severity = severity
    }
}

/// Checks a tenant's routing rules before they are stored: pure, no I/O.
public enum RoutingValidator {
    /// All problems of `rules` against the tenant's accounts (with their plugins' manifests).
    /// - Parameter maxRateLossLimit: the largest `max_rate_loss` an adaptive rule may set (percentage points).
    public static func validate(
        _ rules: [RoutingRule], accounts: [UUID: RoutingCandidate],
        maxRateLossLimit: Double = PlatformPolicy.AdaptiveRouting().maxRateLossLimit
    ) -> [RoutingIssue] {
        var issues: [RoutingIssue] = []
        for (index, rule) in rules.enumerated() {
            func report(_ code: String, _ message: String, _ severity: RoutingIssue.Severity = .error) {
                issues.append(
                    RoutingIssue(
                        ruleIndex: index, ruleName: rule.name, code: code,
                        message: "rule \(index) ('\(rule.name)'): \(message)", severity: severity))
            }
            for problem in shapeProblems(rule) + strategyProblems(rule, maxRateLossLimit: maxRateLossLimit) {
                report(problem.code, problem.message)
            }
            for accountId in rule.accounts where accounts[accountId] == nil {
                report("unknown_account", "names unknown account \(accountId.uuidString.lowercased())")
            }
            let known = rule.accounts.compactMap { accounts[$0] }
            let loaded = known.compactMap(\.manifest)
            if !known.isEmpty && loaded.isEmpty {
                report("plugin_not_loaded", "none of its accounts has a loaded plugin")
            }
            for problem in supportProblems(rule, loaded: loaded) { report(problem.code, problem.message) }
            for (earlierIndex, earlier) in rules[..<index].enumerated() {
                if earlier.match.covers(rule.match) {
                    report(
                        "rule_unreachable",
                        "every payment it matches is taken by rule \(earlierIndex) ('\(earlier.name)') before it")
                    break
                } else if earlier.match.overlaps(rule.match) && !rule.match.covers(earlier.match) {
                    // A narrower rule before a broader one is the normal "specific first, then general"
                    // shape; a partial overlap leaves it to the order to split payments both could take.
                    report(
                        "rule_overlap",
                        "overlaps rule \(earlierIndex) ('\(earlier.name)') without containing it: narrow one of them")
                }
            }
        }
        return issues
    }

    /// Problems of one rule on its own: accounts, weights, amount bounds and codes.
    static func shapeProblems(_ rule: RoutingRule) -> [(code: String, message: String)] {
        var problems: [(String, String)] = []
        let m = rule.match
        if rule.name.trimmingCharacters(in: .whitespaces).isEmpty { problems.append(("invalid_rule", "has no name")) }
        if rule.accounts.isEmpty { problems.append(("invalid_rule", "names no account")) }
        if Set(rule.accounts).count != rule.accounts.count {
            problems.append(("invalid_rule", "names an account twice"))
        }
        if let weights = rule.weights {
            if weights.count != rule.accounts.count {
                problems.append(("invalid_weights", "has \(weights.count) weights for \(rule.accounts.count) accounts"))
            } else if weights.contains(where: { !(0...RoutingRule.maximumWeight).contains($0) }) {
                problems.append(("invalid_weights", "each weight must be between 0 and \(RoutingRule.maximumWeight)"))
            } else if weights.allSatisfy({ $0 == 0 }) {
                problems.append(("invalid_weights", "weights must not all be zero"))
            } else if Self.checkedSum(weights).map({ $0 > RoutingRule.maximumWeight }) ?? true {
                problems.append(("invalid_weights", "weights add up to more than \(RoutingRule.maximumWeight)"))
            }
        }
        for code in m.countries where !NewPayment.isCountryCode(code) {
            problems.append(("invalid_rule", "country '\(code)' is not an upper-case ISO 3166 alpha-2 code"))
        }
        for code in m.currencies where Currency.named(code) == nil {
            problems.append(("invalid_rule", "currency '\(code)' is not a supported ISO 4217 code"))
        }
        for method in m.methods where !NewPayment.isMethodName(method) {
            problems.append(("invalid_rule", "method '\(method)' must be lower case"))
        }
        if (m.minAmount ?? 0) < 0 || (m.maxAmount ?? 0) < 0 {
            problems.append(("invalid_rule", "amount bounds must not be negative"))
        }
        if (m.minAmount ?? 0) > Currency.maximumAmount || (m.maxAmount ?? 0) > Currency.maximumAmount {
            problems.append(("invalid_rule", "amount bounds must not exceed \(Currency.maximumAmount) minor units"))
        }
        if let min = m.minAmount, let max = m.maxAmount, min > max {
            problems.append(("invalid_rule", "min_amount is above max_amount"))
        }
        if m.minAmount != nil || m.maxAmount != nil {
            let exponents = Set(m.currencies.compactMap { Currency.named($0)?.exponent })
            if m.currencies.isEmpty {
                problems.append(
                    ("amount_without_currency", "amount bounds are in minor units and need the rule's currencies"))
            } else if exponents.count > 1 {
                problems.append(
                    ("mixed_currency_exponents", "amount bounds apply to currencies with different minor units"))
            }
        }
        return problems
    }

    /// The sum of `values`, or nil when it does not fit in an `Int`.
    static func checkedSum(_ values: [Int]) -> Int? {
        var total = 0
        for value in values {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}

extension RoutingRule.Match {
    /// Whether every payment `other` matches is also matched by `self`.
    func covers(_ other: RoutingRule.Match) -> Bool {
        func listCovers(_ mine: [String], _ theirs: [String]) -> Bool {
            mine.isEmpty || (!theirs.isEmpty && Set(theirs).isSubset(of: Set(mine)))
        }
        let lowerCovers = minAmount.map { mine in other.minAmount.map { $0 >= mine } ?? false } ?? true
        let upperCovers = maxAmount.map { mine in other.maxAmount.map { $0 <= mine } ?? false } ?? true
        return listCovers(countries, other.countries) && listCovers(currencies, other.currencies)
            && listCovers(methods, other.methods) && lowerCovers && upperCovers
    }

    /// Whether some payment matches both.
    func overlaps(_ other: RoutingRule.Match) -> Bool {
        func listsMeet(_ a: [String], _ b: [String]) -> Bool {
            a.isEmpty || b.isEmpty || !Set(a).isDisjoint(with: b)
        }
        let low = max(minAmount ?? Int64.min, other.minAmount ?? Int64.min)
        let high = min(maxAmount ?? Int64.max, other.maxAmount ?? Int64.max)
        return listsMeet(countries, other.countries) && listsMeet(currencies, other.currencies)
            && listsMeet(methods, other.methods) && low <= high
    }
}
