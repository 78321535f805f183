import Foundation
import ProviderKit
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

/// A live account may not use the credentials a provider publishes for its test system: with a public
/// test merchant's key anyone can sign a notification that marks a payment paid.
struct PublicTestCredentialsTests {
    let tenant = UUID()
    let repository = InMemoryAccountRepository()
    let service: ProviderAccountService

    static let manifest = PluginManifest(
        id: "simu", version: "1.0.0", provider: "Simu", abiVersion: 1, flows: [], methods: ["card"],
        countries: [], currencies: ["EUR"], honoursIdempotencyKey: false, usesAccessToken: false,
        credentials: [
            CredentialField(name: "merchant_id", secret: false, publicTestValues: ["001", "002"]),
            CredentialField(name: "secret_key", secret: true, publicTestValues: ["001_KEY1", "002_KEY1"]),
            CredentialField(name: "key_version", secret: false, required: false),
        ])

    init() {
        service = ProviderAccountService(accounts: repository, manifest: { $0 == "simu" ? Self.manifest : nil })
    }

    func new(environment: String, merchant: String, key: String) -> ProviderAccountService.NewAccount {
        .init(
            plugin: "simu", environment: environment, baseURL: "https://simu.example",
            credentials: ["merchant_id": merchant, "secret_key": key])
    }

    /// The error `body` throws, which must be a ``CoreError``.
    func refusal(_ body: () async throws -> Void) async -> CoreError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? CoreError
        }
    }

    @Test func aLiveAccountWithAPublishedValueIsRefusedByNameWithoutEchoingTheValue() async throws {
        for environment in ["production", "live"] {
            let error = await refusal {
                _ = try await service.create(
                    tenant: tenant, new(environment: environment, merchant: "m-own", key: " 002_KEY1 "), actor: "op")
            }
            #expect(error?.code == .credentialIsPublicTestValue)
            #expect(error?.param == "credentials.secret_key")
            #expect(error?.message.contains("002_KEY1") == false)
            #expect(error?.message.contains("Simu") == true)
        }
        let merchant = await refusal {
            _ = try await service.create(
                tenant: tenant, new(environment: "production", merchant: "001", key: "own-key"), actor: "op")
        }
        #expect(merchant?.param == "credentials.merchant_id")
        #expect(try await service.accounts(tenant: tenant).isEmpty)
    }

    @Test func testAccountsKeepThePublishedValuesAndLiveAccountsTheirOwn() async throws {
        for environment in ["sandbox", "test"] {
            _ = try await service.create(
                tenant: tenant, new(environment: environment, merchant: "001", key: "001_KEY1"), actor: "op")
        }
        // A value that only resembles a published one is the merchant's own.
        _ = try await service.create(
            tenant: tenant, new(environment: "production", merchant: "0011", key: "003_KEY1"), actor: "op")
        #expect(try await service.accounts(tenant: tenant).count == 3)
    }

    @Test func anAccountCannotBecomeLiveWithAPublishedValueNorTakeOneWhileLive() async throws {
        let sandbox = try await service.create(
            tenant: tenant, new(environment: "sandbox", merchant: "001", key: "001_KEY1"), actor: "op")
        await expectCoreError(.credentialIsPublicTestValue) {
            _ = try await service.update(sandbox, .init(environment: "production"), actor: "op")
        }
        let live = try await service.create(
            tenant: tenant, new(environment: "production", merchant: "m-own", key: "own-key"), actor: "op")
        await expectCoreError(.credentialIsPublicTestValue) {
            _ = try await service.update(live, .init(credentials: ["merchant_id": "002"]), actor: "op")
        }
        // Neither change was stored; a change that keeps the values the merchant's own is.
        #expect(try await service.account(tenant: tenant, id: sandbox.id).environment == "sandbox")
        #expect(try await service.account(tenant: tenant, id: live.id).credentials["merchant_id"] == "m-own")
        let renamed = try await service.update(live, .init(name: "Main", environment: "live"), actor: "op")
        #expect(renamed.environment == "live")
    }

    @Test func theFieldIsFoundFromTheManifestAlone() {
        #expect(PublicTestCredentials.field(in: ["merchant_id": "002"], manifest: Self.manifest) == "merchant_id")
        #expect(PublicTestCredentials.field(in: ["key_version": "001"], manifest: Self.manifest) == nil)
        #expect(PublicTestCredentials.field(in: [:], manifest: Self.manifest) == nil)
    }
}
