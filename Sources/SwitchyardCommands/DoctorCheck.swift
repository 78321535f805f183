import Foundation
import PluginHost
import ProviderKit
import SwitchyardCore
import SwitchyardStore

/// One line of `switchyard doctor`: what was checked, what was found and, when it is not right, the fix.
struct DoctorCheck: Equatable, Sendable {
    enum Status: String, Sendable {
        case ok
        /// Could not be verified (nothing to check yet); not a failure.
        case warn
        case fail
    }

    var name: String
    var status: Status
    var detail: String
    var fix: String?

    static func ok(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .ok, detail: detail)
    }

    static func fail(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .fail, detail: detail, fix: fix)
    }

    /// The check as printed: `ok`/`warn`/`FAIL`, the name and the detail, then the fix on its own line.
    var text: String {
        let label = status == .fail ? "FAIL" : status.rawValue
        let line = "\(label.padding(toLength: 5, withPad: " ", startingAt: 0)) \(name): \(detail)"
        return fix.map { line + "\n      fix: \($0)" } ?? line
    }
}

/// The judgements of `switchyard doctor`, each a pure function of what was read.
enum Doctor {
    /// The server's database role: no superuser, no BYPASSRLS, owns no table, and every tenant table
    /// has row-level security enabled and forced.
    static func roles(_ d: DatabaseDiagnosis) -> DoctorCheck {
        var problems: [String] = []
        if d.superuser { problems.append("is a superuser") }
        if d.bypassesRowSecurity { problems.append("has BYPASSRLS") }
        if d.ownsTables { problems.append("owns the tables") }
        if !problems.isEmpty {
            return .fail(
                "roles", "the server connects as \(d.role), which " + problems.joined(separator: ", "),
                fix: "connect the server as the application role of deploy/roles.sql (switchyard_app: LOGIN, "
                    + "NOBYPASSRLS, owning nothing); only `switchyard migrate` uses the owner")
        }
        guard d.unconfinedTables.isEmpty else {
            return .fail(
                "roles",
                "row-level security is not enabled and forced on " + d.unconfinedTables.joined(separator: ", "),
                fix: "run `switchyard migrate` with the owner's connection string; it enables and forces it")
        }
        return .ok("roles", "\(d.role): no superuser, no BYPASSRLS, owns nothing; every tenant table is confined")
    }

    /// Every migration of this binary applied, none newer.
    static func migrations(applied: [Int], known: [Int]) -> DoctorCheck {
        let newer = Set(applied).subtracting(known).sorted()
        let pending = Set(known).subtracting(applied).sorted()
        if !newer.isEmpty {
            return .fail(
                "migrations", "the database has migrations this binary does not know: " + list(newer),
                fix: "run the switchyard version that migrated it (or newer)")
        }
        if !pending.isEmpty {
            return .fail(
                "migrations", "pending: " + list(pending),
                fix: "run `switchyard migrate` with the owner's connection string")
        }
        return .ok("migrations", "all \(known.count) applied, up to \(known.max() ?? 0)")
    }

    /// The key-encryption key opens a secret stored in the database.
    static func keyEncryptionKey(opens: Bool?) -> DoctorCheck {
        switch opens {
        case true?: return .ok("kek", "the key-encryption key opens a stored secret")
        case false?:
            return .fail(
                "kek", "the key-encryption key does not open the secrets stored in this database",
                fix: "set SWITCHYARD_KEK (or --kek-file) to the key the secrets were sealed with, or during a "
                    + "rotation add it as a previous key (SWITCHYARD_KEK_PREVIOUS or --kek-previous-file)")
        case nil:
            return DoctorCheck(
                name: "kek", status: .warn, detail: "no secret stored yet: the key cannot be checked against one")
        }
    }

    /// A plugin file the scanner read: its manifest's id and its digest.
    struct ScannedPlugin: Equatable, Sendable {
        var file: String
        var id: String
        var sha256: String
    }

    /// Every plugin file's digest is pinned for its id in pinned mode.
    static func plugins(_ scanned: [ScannedPlugin], policy: PluginPolicy, directory: String) -> DoctorCheck {
        let fix = "pin them: `switchyard plugins pin \(directory) --policy FILE` and install the printed policy"
        guard policy.mode == .pinned else {
            return .fail("plugins", "the policy is in development mode: any digest loads", fix: fix)
        }
        let refused = scanned.filter { policy.evaluate(id: $0.id, sha256: $0.sha256) != .allowed }
        guard refused.isEmpty else {
            return .fail(
                "plugins",
                "not pinned by the policy: " + refused.map { "\($0.file) (\($0.id))" }.joined(separator: ", "),
                fix: fix)
        }
        guard !scanned.isEmpty else {
            return .fail(
                "plugins", "no plugin in \(directory)",
                fix: "install the plugin .so files there, or pass --plugins-dir")
        }
        return .ok("plugins", "\(scanned.count) pinned: " + scanned.map(\.id).sorted().joined(separator: ", "))
    }

    /// No live account uses a credential value its plugin declares published for the provider's test
    /// system (``PublicTestCredentials``): with it anyone could sign the provider's notifications. Accounts
    /// of plugins that were not scanned are counted as not checked.
    static func testCredentials(_ accounts: [ProviderAccount], manifests: [PluginManifest]) -> DoctorCheck {
        let byID = Dictionary(manifests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [String] = []
        var unchecked = 0
        for account in accounts {
            guard let manifest = byID[account.pluginId] else {
                unchecked += 1
                continue
            }
            if let field = PublicTestCredentials.field(in: account.credentials, manifest: manifest) {
                found.append("\(account.id) (tenant \(account.tenantId), \(account.pluginId), \(field))")
            }
        }
        guard found.isEmpty else {
            return .fail(
                "test-credentials",
                "live accounts with a provider's published test credential: " + found.joined(separator: ", "),
                fix: "give each account the credentials the provider issued to the merchant "
                    + "(PATCH /admin/v1/tenants/{tenant}/provider-accounts/{account}), or disable it")
        }
        let checked = accounts.count - unchecked
        let detail = "\(checked) live account(s) checked, none uses a published test credential"
        guard unchecked == 0 else {
            return DoctorCheck(
                name: "test-credentials", status: .warn,
                detail: detail + "; \(unchecked) not checked (their plugins were not scanned)")
        }
        return .ok("test-credentials", detail)
    }

    private static func list(_ versions: [Int]) -> String {
        versions.map(String.init).joined(separator: ", ")
    }
}

extension Doctor {
    /// The public URL providers are told to notify is one a production server accepts: set, an http(s)
    /// base URL, not loopback (the same decision `serve` makes with an external database).
    static func publicURL(_ url: String?) -> DoctorCheck {
        let choice = PublicURLChoice(
            configured: url, host: "0.0.0.0", port: 0, externalDatabase: true, allowLoopback: false)
        switch choice.decide() {
        case .success(let url): return .ok("public-url", url)
        case .failure(let refusal):
            return .fail(
                "public-url", refusal.description,
                fix: "set SWITCHYARD_PUBLIC_URL (or --public-url) to the address providers reach the server at")
        }
    }
}
