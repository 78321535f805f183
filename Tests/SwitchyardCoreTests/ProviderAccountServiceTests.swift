import Foundation
import ProviderKit
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

struct ProviderAccountServiceTests {
    let tenant = UUID()
    let repository = InMemoryAccountRepository()
    let service: ProviderAccountService

    static let manifest = PluginManifest(
        id: "acme", version: "1.0.0", provider: "Acme", abiVersion: 1, flows: [], methods: ["card"],
        countries: ["US"], currencies: ["USD"], honoursIdempotencyKey: true, usesAccessToken: false,
        credentials: [
            CredentialField(name: "merchant_id", secret: false),
            CredentialField(name: "api_secret", secret: true),
            CredentialField(name: "region", secret: false, required: false),
        ])

    init() {
        service = ProviderAccountService(
            accounts: repository, manifest: { $0 == "acme" ? Self.manifest : nil },
            now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    func new(
        plugin: String = "acme", baseURL: String = "https://acme.example",
        credentials: [String: String]? = ["merchant_id": "m1", "api_secret": "s3cret"]
    ) -> ProviderAccountService.NewAccount {
        .init(plugin: plugin, baseURL: baseURL, credentials: credentials)
    }

    @Test func anAccountNeedsALoadedPluginItsRequiredCredentialsOnlyAndAnHTTPBaseURL() async throws {
        await expectCoreError(.unknownPlugin) {
            _ = try await service.create(tenant: tenant, new(plugin: "nope"), actor: "operator")
        }
        await expectCoreError(.missingCredential) {
            _ = try await service.create(tenant: tenant, new(credentials: ["merchant_id": "m1"]), actor: "operator")
        }
        await expectCoreError(.unknownCredential) {
            _ = try await service.create(
                tenant: tenant, new(credentials: ["merchant_id": "m", "api_secret": "s", "pin": "1"]),
                actor: "operator")
        }
        for url in ["ftp://acme.example", "/relative", "https://"] {
            await expectCoreError(.invalidBaseURL) {
                _ = try await service.create(tenant: tenant, new(baseURL: url), actor: "operator")
            }
        }
        #expect(try await service.accounts(tenant: tenant).isEmpty)
    }

    @Test func aNewAccountTakesTheManifestsDefaultsAndSecretFields() async throws {
        let account = try await service.create(tenant: tenant, new(), actor: "operator")
        #expect(account.name == "Acme" && account.environment == "sandbox" && account.enabled)
        #expect(account.pluginId == "acme" && account.secretFields == ["api_secret"])
        #expect(try await service.account(tenant: tenant, id: account.id) == account)
        await expectCoreError(.notFound) {
            _ = try await service.account(tenant: UUID(), id: account.id)
        }
        await expectCoreError(.notFound) { _ = try await service.account(tenant: tenant, id: nil) }
    }

    @Test func anUpdateChecksWhatChangesAndRecordsTheChangedFields() async throws {
        let account = try await service.create(tenant: tenant, new(), actor: "operator")
        await expectCoreError(.invalidBaseURL) {
            _ = try await service.update(account, .init(baseURL: "mailto:x"), actor: "operator")
        }
        await expectCoreError(.unknownCredential) {
            _ = try await service.update(account, .init(credentials: ["pin": "1"]), actor: "operator")
        }
        let updated = try await service.update(
            account, .init(name: "Main", credentials: ["region": "eu"], enabled: false), actor: "operator")
        #expect(updated.name == "Main" && !updated.enabled && updated.credentials["region"] == "eu")
        #expect(try await service.account(tenant: tenant, id: account.id) == updated)
        #expect(await repository.changes.last?.fields == ["name", "enabled", "credentials.region"])
    }
}
