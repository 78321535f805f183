import ArgumentParser
import Foundation
import Logging
import PluginHost
import ProviderKit
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardStore

/// `switchyard doctor`: checks a deployment's configuration and database as its server would use them,
/// printing ok or FAIL with the fix for each check; exits non-zero when any check fails. Changes nothing.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a deployment's configuration and database; exit non-zero on any failure.",
        discussion: """
            Give it what the server is given: --database-url (the server's own login, not the owner's), the \
            key-encryption key (SWITCHYARD_KEK or --kek-file), --policy, --plugins-dir and --public-url \
            (or SWITCHYARD_PUBLIC_URL). It checks the database role and row-level security, the migrations, \
            that the key opens a stored secret, that every plugin file is pinned by the policy, that the \
            public URL is not loopback, and that the resource bundle is installed.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Directory of plugin .so files (default: <data-dir>/plugins, as serve).")
    var pluginsDir: String?

    @Option(help: "Base URL providers use to reach the server (or SWITCHYARD_PUBLIC_URL).")
    var publicURL: String?

    func run() async throws {
        var logger = Logger(label: "switchyard.doctor")
        logger.logLevel = .critical
        var checks: [DoctorCheck] = [Self.bundle()]
        checks.append(Doctor.publicURL(publicURL ?? ProcessInfo.processInfo.environment["SWITCHYARD_PUBLIC_URL"]))
        let policy = Self.policy(database.policy)
        checks.append(policy.check)
        var plugins: (check: DoctorCheck, manifests: [PluginManifest])?
        if let pluginPolicy = policy.plugins {
            let directory = CommandSupport.absolute(
                pluginsDir ?? CommandSupport.absolute(database.dataDir) + "/plugins")
            plugins = await Self.plugins(directory: directory, policy: pluginPolicy, logger: logger)
        }
        checks += await databaseChecks(manifests: plugins?.manifests ?? [], logger: logger)
        if let plugins { checks.append(plugins.check) }
        for check in checks { print(check.text) }
        let failed = checks.filter { $0.status == .fail }.count
        print(failed == 0 ? "doctor: every check passed" : "doctor: \(failed) check(s) failed")
        if failed > 0 { throw ExitCode.failure }
    }

    static func bundle() -> DoctorCheck {
        do {
            _ = try OpenAPIDocument.load()
            return .ok("bundle", "Switchyard_SwitchyardHTTP.resources is installed beside the binary")
        } catch {
            return .fail(
                "bundle", "the resource bundle is missing (\(error))",
                fix: "install the Switchyard_SwitchyardHTTP.resources directory beside the switchyard binary")
        }
    }

    static func policy(_ path: String) -> (check: DoctorCheck, plugins: PluginPolicy?) {
        do {
            let (plugins, _) = try CommandSupport.loadPolicy(path)
            return (.ok("policy", "\(path) reads"), plugins)
        } catch {
            return (.fail("policy", "\(path): \(error)", fix: "fix the policy file, or pass --policy"), nil)
        }
    }

    /// The database, role, migration and key checks, through the server's own connection, and the live
    /// accounts' credentials against the published test values of the scanned plugins' `manifests`.
    func databaseChecks(manifests: [PluginManifest], logger: Logger) async -> [DoctorCheck] {
        guard let url = database.databaseURL else {
            return [
                .fail(
                    "database", "no database URL",
                    fix: "pass --database-url (or SWITCHYARD_DATABASE_URL) with the server's own login")
            ]
        }
        var checks: [DoctorCheck] = []
        let key: SecretBox?
        do {
            key = try CommandSupport.secretBox(database)
        } catch {
            key = nil
            checks.append(
                .fail(
                    "kek", "the key-encryption key cannot be read (\(error))", fix: "check SWITCHYARD_KEK or --kek-file"
                ))
        }
        if key == nil, checks.isEmpty {
            checks.append(.fail("kek", "no key-encryption key", fix: "set SWITCHYARD_KEK or pass --kek-file"))
        }
        do {
            let (diagnosis, live) = try await PGPool.scoped(connectionString: url, logger: logger) { pool in
                // Without a usable key, a random one still lets the other checks run.
                let store = PostgresStore(
                    pool: pool, secrets: try key ?? SecretBox(key: SecureRandom.bytes(32)), clock: { Date() },
                    logger: logger)
                let diagnosis = try await store.diagnose()
                // Credentials open only with the right key (the kek check reports a wrong one).
                let readable = key != nil && !diagnosis.appliedMigrations.isEmpty
                return (diagnosis, readable ? try? await store.accounts.liveAccounts() : nil)
            }
            checks.insert(.ok("database", "connected as \(diagnosis.role)"), at: 0)
            checks.append(Doctor.roles(diagnosis))
            checks.append(
                Doctor.migrations(applied: diagnosis.appliedMigrations, known: Schema.migrations.map(\.version)))
            if key != nil { checks.append(Doctor.keyEncryptionKey(opens: diagnosis.keyOpensStoredSecret)) }
            if let live { checks.append(Doctor.testCredentials(live, manifests: manifests)) }
        } catch {
            checks.insert(
                .fail(
                    "database", "cannot read the database (\(error))",
                    fix: "check --database-url (or SWITCHYARD_DATABASE_URL), the network and the role's password"),
                at: 0)
        }
        return checks
    }

    /// Every `.so` file of `directory`: a file whose digest no pinned entry lists is never opened (as the
    /// server would not); the others are examined by the scanner process for their id.
    /// Answers the check and the manifests of the plugins it scanned.
    static func plugins(directory: String, policy: PluginPolicy, logger: Logger) async
        -> (check: DoctorCheck, manifests: [PluginManifest])
    {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return (
                .fail("plugins", "cannot list \(directory)", fix: "pass --plugins-dir with the server's plugins"), []
            )
        }
        guard let executable = PluginExecutable.current() else {
            return (
                .fail(
                    "plugins", "the plugin scanner needs the switchyard executable itself",
                    fix: "run the installed switchyard"), []
            )
        }
        let scanner = PluginScanner(executable: executable, logger: logger)
        var scanned: [Doctor.ScannedPlugin] = []
        var manifests: [PluginManifest] = []
        for name in names.sorted() where name.hasSuffix(".so") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let digest = try? PluginPin.digest(of: path) else {
                return (.fail("plugins", "cannot read \(path)", fix: "check the file's permissions"), manifests)
            }
            var id = "not examined: digest not pinned"
            if policy.mayOpen(sha256: digest) {
                do {
                    let manifest = try await scanner.scan(path).manifest
                    id = manifest?.id ?? "no manifest"
                    if let manifest { manifests.append(manifest) }
                } catch {
                    id = "refused by the scanner: \(error.code.rawValue)"
                }
            }
            scanned.append(Doctor.ScannedPlugin(file: name, id: id, sha256: digest))
        }
        return (Doctor.plugins(scanned, policy: policy, directory: directory), manifests)
    }
}
