import Foundation
import ProviderKit

/// The manifest's check: it validates against `manifest.json`, and it gives routing what routing needs
/// (an id, a way to take payments, methods, currencies and countries in their codes — none listed means
/// any — and credential fields).
struct CertificationManifestCheck: Sendable {
    let manifest: PluginManifest

    func check() -> CertificationReport.Check {
        var problems: [String] = []
        do {
            problems += try SDKFiles.schemaValidator.problems(encoding: manifest, against: "manifest.json")
        } catch {
            problems.append("the manifest schema cannot be read: \(error)")
        }
        problems += routingProblems()
        if problems.isEmpty {
            return .pass(
                "manifest",
                "\(manifest.id) \(manifest.version): \(manifest.flows.count) flows, \(manifest.methods.count) methods")
        }
        return .fail("manifest", problems.joined(separator: "; "))
    }

    func routingProblems() -> [String] {
        var problems: [String] = []
        if manifest.id.range(of: #"^[a-z0-9][a-z0-9-]{0,62}$"#, options: .regularExpression) == nil {
            problems.append("id \(manifest.id) must be lowercase letters, digits and dashes")
        }
        if manifest.version.isEmpty { problems.append("version is empty") }
        if !manifest.flows.contains(.authorize) {
            problems.append("flows lack authorize: routing sends payments there")
        }
        if manifest.methods.isEmpty { problems.append("methods is empty: no payment can route to the plugin") }
        for currency in manifest.currencies where currency.range(of: "^[A-Z]{3}$", options: .regularExpression) == nil {
            problems.append("currency \(currency) is not an ISO 4217 code")
        }
        for country in manifest.countries where country.range(of: "^[A-Z]{2}$", options: .regularExpression) == nil {
            problems.append("country \(country) is not an ISO 3166 alpha-2 code")
        }
        let names = manifest.credentials.map(\.name)
        if Set(names).count != names.count { problems.append("credential fields repeat a name") }
        if names.contains(where: \.isEmpty) { problems.append("a credential field has no name") }
        if manifest.usesAccessToken && !manifest.flows.contains(.accessToken) {
            problems.append("usesAccessToken is true and flows lack accessToken")
        }
        for support in manifest.methodSupport ?? [] where !manifest.methods.contains(support.method) {
            problems.append("methodSupport names \(support.method), which methods lacks")
        }
        return problems
    }
}
