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
        #expect(try await service.endpoints(tenant: tenant).isEmpty)
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
}
