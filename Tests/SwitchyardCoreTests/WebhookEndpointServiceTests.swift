import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

struct WebhookEndpointServiceTests {
    /// Resolves names from a table; any other name does not resolve.
    struct TableResolver: HostResolver {
        var table: [String: [IPAddress]]
        func resolve(_ host: String, timeout: Duration) async throws -> [IPAddress] { table[host] ?? [] }
    }

    let tenant = UUID()
    let repository = InMemoryWebhookEndpointRepository()
    let service: WebhookEndpointService

    init() {
        var policy = PlatformPolicy()
        policy.webhooks.maxEndpointsPerTenant = 2
        service = WebhookEndpointService(
            endpoints: repository, policy: PolicyCenter(policy),
            resolver: TableResolver(table: [
                "hooks.example": [IPAddress("93.184.216.34")!], "inside.example": [IPAddress("10.0.0.5")!],
            ]))
    }

    func create(_ url: String, description: String? = nil, types: [String] = ["payment.succeeded"]) async throws
        -> WebhookEndpoint
    {
        try await service.create(tenant: tenant, url: url, description: description, eventTypes: types, actor: "k").0
    }

    @Test func anEndpointNeedsAShortDescriptionAValidURLAndAPublicHost() async throws {
        let long = String(repeating: "d", count: 1001)
        await expectCoreError(.invalidDescription) {
            _ = try await create("https://hooks.example/in", description: long)
        }
        await expectCoreError(.invalidWebhookURL) { _ = try await create("ftp://hooks.example/in") }
        await expectCoreError(.invalidEventTypes) {
            _ = try await create("https://hooks.example/in", types: ["payment.nope"])
        }
        await expectCoreError(.endpointAddressForbidden) {
            _ = try await create("https://inside.example/")
        }
        #expect(try await service.endpoints(tenant: tenant).items.isEmpty)
    }

    @Test func eventTypesAreKeptOnceAndANameThatDoesNotResolveYetIsAccepted() async throws {
        let endpoint = try await create(
            "https://later.example/in", types: ["payment.succeeded", "payment.failed", "payment.succeeded"])
        #expect(endpoint.eventTypes == ["payment.succeeded", "payment.failed"])
        #expect(try await service.endpoint(tenant: tenant, id: endpoint.id) == endpoint)
        await expectCoreError(.notFound) {
            _ = try await service.endpoint(tenant: UUID(), id: endpoint.id)
        }
    }

    @Test func thePlatformsQuotaCountsEnabledEndpointsOnly() async throws {
        let first = try await create("https://hooks.example/1")
        _ = try await create("https://hooks.example/2")
        await expectCoreError(.endpointQuotaExceeded) {
            _ = try await create("https://hooks.example/3")
        }
        #expect(try await service.disable(tenant: tenant, id: first.id, actor: "k").enabled == false)
        _ = try await create("https://hooks.example/3")
        await expectCoreError(.notFound) {
            _ = try await service.disable(tenant: tenant, id: "we_x", actor: "k")
        }
    }

    @Test func anUpdateKeepsTheRegistrationRulesAndReEnablingKeepsTheQuota() async throws {
        let first = try await create("https://hooks.example/1")
        await expectCoreError(.invalidRequest) {
            _ = try await service.update(tenant: tenant, id: first.id, update: WebhookEndpointUpdate(), actor: "k")
        }
        await expectCoreError(.endpointAddressForbidden) {
            _ = try await service.update(
                tenant: tenant, id: first.id, update: WebhookEndpointUpdate(url: "https://inside.example/"), actor: "k")
        }
        await expectCoreError(.invalidEventTypes) {
            _ = try await service.update(
                tenant: tenant, id: first.id, update: WebhookEndpointUpdate(eventTypes: ["nope"]), actor: "k")
        }
        let moved = try await service.update(
            tenant: tenant, id: first.id,
            update: WebhookEndpointUpdate(url: "https://hooks.example/moved", eventTypes: ["refund.*", "refund.*"]),
            actor: "k")
        #expect(moved.url == "https://hooks.example/moved" && moved.eventTypes == ["refund.*"])
        _ = try await service.update(tenant: tenant, id: first.id, update: .init(enabled: false), actor: "k")
        _ = try await create("https://hooks.example/2")
        _ = try await create("https://hooks.example/3")
        await expectCoreError(.endpointQuotaExceeded) {
            _ = try await service.update(tenant: tenant, id: first.id, update: .init(enabled: true), actor: "k")
        }
        await expectCoreError(.invalidState) { _ = try await service.ping(tenant: tenant, id: first.id, actor: "k") }
        await expectCoreError(.notFound) {
            _ = try await service.update(tenant: UUID(), id: first.id, update: .init(enabled: true), actor: "k")
        }
    }

    @Test func aRotationsOverlapIsBoundedAndItsEndpointMustExist() async throws {
        let endpoint = try await create("https://hooks.example/1")
        let (rotated, secret) = try await service.rotateSecret(
            tenant: tenant, id: endpoint.id, expiresInSeconds: nil, actor: "k")
        #expect(secret.hasPrefix("whsec_"))
        #expect(rotated.previousSecretExpiresAt != nil, "the policy's default overlap")
        await expectCoreError(.invalidField) {
            _ = try await service.rotateSecret(tenant: tenant, id: endpoint.id, expiresInSeconds: -5, actor: "k")
        }
        await expectCoreError(.notFound) {
            _ = try await service.rotateSecret(tenant: tenant, id: "we_x", expiresInSeconds: 0, actor: "k")
        }
    }
}
