import Foundation
import ProviderKit

extension RoutingValidator {
    /// Problems of a rule's methods and currencies against the manifests of its accounts' loaded plugins:
    /// each method must be one some plugin authorises, and each currency one some plugin takes for each of
    /// the rule's methods (for any of its methods when the rule names none), as the manifest declares it per
    /// method. A currency a plugin takes only for another method would route nothing.
    static func supportProblems(_ rule: RoutingRule, loaded: [PluginManifest]) -> [(code: String, message: String)] {
        guard !loaded.isEmpty else { return [] }
        var problems: [(String, String)] = []
        let authorizing = loaded.filter { $0.flows.contains(.authorize) }
        let methods = rule.match.methods.filter { method in authorizing.contains { $0.methods.contains(method) } }
        for method in rule.match.methods where !methods.contains(method) {
            problems.append(("method_unsupported", "no plugin of its accounts supports method \(method)"))
        }
        for currency in rule.match.currencies {
            if rule.match.methods.isEmpty {
                let taken = loaded.contains { plugin in plugin.methods.contains { plugin.takes($0, in: currency) } }
                if !taken {
                    problems.append(("currency_unsupported", "no plugin of its accounts supports currency \(currency)"))
                }
                continue
            }
            // A method no plugin supports is reported once, above.
            for method in methods where !authorizing.contains(where: { $0.takes(method, in: currency) }) {
                problems.append(
                    (
                        "currency_unsupported",
                        "no plugin of its accounts supports method \(method) in currency \(currency)"
                    ))
            }
        }
        return problems
    }
}

extension PluginManifest {
    /// Whether the plugin offers `method` in `currency`: both the manifest-wide currencies and the method's
    /// own (when it declares any) allow it.
    func takes(_ method: String, in currency: String) -> Bool {
        guard let support = support(for: method) else { return false }
        return (currencies.isEmpty || currencies.contains(currency))
            && (support.currencies.isEmpty || support.currencies.contains(currency))
    }
}
