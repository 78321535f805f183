import Foundation
import PluginHost
import ProviderKit
import SwitchyardCore
import SwitchyardStore
import Testing

@testable import SwitchyardCommands

/// The judgements of `switchyard doctor`, from what it read.
struct DoctorCheckTests {
    static func diagnosis(
        superuser: Bool = false, bypass: Bool = false, owns: Bool = false, unconfined: [String] = []
    ) -> DatabaseDiagnosis {
        DatabaseDiagnosis(
            role: "switchyard_app", superuser: superuser, bypassesRowSecurity: bypass, ownsTables: owns,
            unconfinedTables: unconfined, appliedMigrations: [1, 2], keyOpensStoredSecret: true)
    }

    @Test func theRolesCheckFailsOnEveryWayAroundRowLevelSecurity() {
        #expect(Doctor.roles(Self.diagnosis()).status == .ok)
        for bad in [
            Self.diagnosis(superuser: true), Self.diagnosis(bypass: true), Self.diagnosis(owns: true),
            Self.diagnosis(unconfined: ["payments"]),
        ] {
            let check = Doctor.roles(bad)
            #expect(check.status == .fail)
            #expect(check.fix?.isEmpty == false)
        }
        #expect(Doctor.roles(Self.diagnosis(bypass: true)).detail.contains("BYPASSRLS"))
        #expect(Doctor.roles(Self.diagnosis(unconfined: ["payments"])).detail.contains("payments"))
    }

    @Test func migrationsMustBeExactlyThoseOfTheBinary() {
        #expect(Doctor.migrations(applied: [1, 2, 3], known: [1, 2, 3]).status == .ok)
        let pending = Doctor.migrations(applied: [1, 2], known: [1, 2, 3])
        #expect(pending.status == .fail)
        #expect(pending.detail == "pending: 3")
        let newer = Doctor.migrations(applied: [1, 2, 3, 4], known: [1, 2, 3])
        #expect(newer.status == .fail)
        #expect(newer.detail.hasSuffix("4"))
        #expect(Doctor.migrations(applied: [], known: [1]).status == .fail)
    }

    @Test func theKeyFailsOnlyWhenItCannotOpenAStoredSecret() {
        #expect(Doctor.keyEncryptionKey(opens: true).status == .ok)
        #expect(Doctor.keyEncryptionKey(opens: false).status == .fail)
        #expect(Doctor.keyEncryptionKey(opens: nil).status == .warn)
    }

    @Test func pluginsMustBePinnedForTheirIds() {
        let digest = String(repeating: "ab", count: 32)
        let pinned = PluginPolicy(mode: .pinned, allowed: [PluginPolicy.Entry(id: "citcon", sha256: [digest])])
        let good = Doctor.ScannedPlugin(file: "libCitconPlugin.so", id: "citcon", sha256: digest)
        #expect(Doctor.plugins([good], policy: pinned, directory: "/p").status == .ok)
        let other = Doctor.ScannedPlugin(
            file: "libCitconPlugin.so", id: "citcon", sha256: String(repeating: "cd", count: 32))
        let refused = Doctor.plugins([good, other], policy: pinned, directory: "/p")
        #expect(refused.status == .fail)
        #expect(refused.fix?.contains("switchyard plugins pin /p") == true)
        #expect(Doctor.plugins([], policy: pinned, directory: "/p").status == .fail)
        let development = PluginPolicy(mode: .development, allowed: [PluginPolicy.Entry(id: "citcon")])
        #expect(Doctor.plugins([good], policy: development, directory: "/p").status == .fail)
    }

    @Test func thePublicURLMustBeSetAndReachableFromOutside() {
        #expect(Doctor.publicURL("https://payments.example.com").status == .ok)
        for bad in [nil, "", "not a url", "http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"] {
            #expect(Doctor.publicURL(bad).status == .fail, "\(bad ?? "nil")")
        }
    }

    @Test func aStoredLiveAccountWithAPublishedTestCredentialFailsNamingTheAccountNotTheValue() {
        let sips = PluginManifest(
            id: "worldline-sips", version: "1", provider: "Worldline Sips", abiVersion: 1, flows: [], methods: [],
            countries: [], currencies: [], honoursIdempotencyKey: false, usesAccessToken: false,
            credentials: [
                CredentialField(name: "merchant_id", secret: false, publicTestValues: ["002001000000001"]),
                CredentialField(name: "secret_key", secret: true, publicTestValues: ["002001000000001_KEY1"]),
            ])
        func account(_ plugin: String, _ merchant: String, _ key: String) -> ProviderAccount {
            ProviderAccount(
                id: UUID(), tenantId: UUID(), name: "a", pluginId: plugin, environment: "production",
                baseURL: "https://sips.example", credentials: ["merchant_id": merchant, "secret_key": key],
                secretFields: ["secret_key"], enabled: true, createdAt: Date())
        }
        let own = account("worldline-sips", "211000000000001", "own-key")
        let simu = account("worldline-sips", "211000000000002", "002001000000001_KEY1")
        #expect(Doctor.testCredentials([own], manifests: [sips]).status == .ok)
        #expect(Doctor.testCredentials([], manifests: []).status == .ok)
        let failed = Doctor.testCredentials([own, simu], manifests: [sips])
        #expect(failed.status == .fail)
        #expect(failed.detail.contains(simu.id.uuidString) && failed.detail.contains("secret_key"))
        #expect(!failed.detail.contains(own.id.uuidString) && !failed.text.contains("002001000000001_KEY1"))
        // An account whose plugin was not scanned cannot be checked: a warning, not a pass.
        #expect(Doctor.testCredentials([own, account("other", "x", "y")], manifests: [sips]).status == .warn)
    }

    @Test func aFailedCheckPrintsItsFixOnTheNextLine() {
        let text = DoctorCheck.fail("kek", "does not open", fix: "set SWITCHYARD_KEK").text
        #expect(text == "FAIL  kek: does not open\n      fix: set SWITCHYARD_KEK")
        #expect(DoctorCheck.ok("bundle", "installed").text == "ok    bundle: installed")
    }
}
