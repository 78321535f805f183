import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import SwitchyardHTTP

/// The route contract (``RouteContracts``) against the router and `openapi.json`, both ways, and its query
/// parameters enforced: an undeclared one is `400 unknown_parameter`.
@Suite struct RouteContractTests {
    @Test func everyRouteHasARowAndEveryRowARoute() {
        let router = SwitchyardServer.router(RouterWorld().dependencies)
        let served = Set(router.routes.map { RouteContract.key($0.method, $0.path.description) })
        let rows = RouteContracts.all.map(\.key)
        #expect(Set(rows).count == rows.count, "a route has two rows")
        #expect(served.subtracting(rows).sorted() == [], "routes without a row in RouteContracts")
        #expect(Set(rows).subtracting(served).sorted() == [], "rows without a route")
        #expect(served.contains("GET /v1/payments/{id}"))
    }

    @Test func theOpenAPIDocumentDocumentsEveryRowExactly() throws {
        let document = try OpenAPIOperations.load()
        #expect(RouteContracts.all.flatMap(document.differences) == [])
        let paths = try #require(document.document["paths"] as? [String: [String: Any]])
        let documented = paths.flatMap { path, item in
            item.keys.filter { ["get", "put", "post", "patch", "delete"].contains($0) }.map { method in
                "\(method.uppercased()) \(path)"
            }
        }
        let rows = Set(RouteContracts.all.map(\.key))
        #expect(Set(documented).subtracting(rows).sorted() == [], "documented operations without a row")
    }

    @Test func aRowTheDocumentDisagreesWithIsNamedWithTheDifference() throws {
        let document = try OpenAPIOperations.load()
        let row = try #require(RouteContracts.contract(.get, "/v1/payments"))
        var changed = row.adding(query: ["stauts"], statuses: [418])
        changed.query.removeAll { $0 == .keyed("metadata") }
        changed.responseHeaders.remove(RouteContract.Header.retryAfter)
        let found = document.differences(changed)
        #expect(found.contains("GET /v1/payments: query parameters declared but not documented: [\"stauts\"]"))
        #expect(found.contains("GET /v1/payments: query parameters documented but not declared: [\"metadata\"]"))
        #expect(found.contains("GET /v1/payments: statuses declared but not documented: [418]"))
        #expect(found.contains("GET /v1/payments: response headers documented but not declared: [\"Retry-After\"]"))
        #expect(
            document.differences(RouteContract(.get, "/v1/nowhere", statuses: [200])) == [
                "GET /v1/nowhere: not documented"
            ])
    }

    @Test func rowsShareTheirBuildingBlocks() throws {
        let create = try #require(RouteContracts.contract(.post, "/v1/payments"))
        #expect(create.requestHeaders == ["Idempotency-Key", "Switchyard-Version", "X-Request-Id"])
        #expect(create.responseHeaders == ["Idempotent-Replayed", "Retry-After", "Switchyard-Version", "X-Request-Id"])
        #expect(create.statuses.isSuperset(of: [201, 400, 401, 403, 409, 413, 415, 429, 500, 503]))
        let list = try #require(RouteContracts.contract(.get, "/v1/payments"))
        #expect(list.accepts(parameter: "created[gte]") && list.accepts(parameter: "metadata[order_no]"))
        #expect(!list.accepts(parameter: "stauts") && !list.accepts(parameter: "created"))
        let health = try #require(RouteContracts.contract(.get, "/health"))
        #expect(health.statuses == [200, 400, 500] && health.responseHeaders == ["X-Request-Id"])
        #expect(RouteContracts.contract(.get, "/v1/payments/{id}")?.statuses.contains(404) == true)
        #expect(RouteContracts.contract(.delete, "/v1/payments") == nil)
    }

    @Test func anUndeclaredParameterIsRefusedByName() throws {
        let row = RouteContract(.get, "/things", query: ["limit", .keyed("metadata")], statuses: [200])
        try QueryContractMiddleware.check(["limit", "metadata%5Bk%5D", "metadata"], against: row)
        do {
            try QueryContractMiddleware.check(["st%61tus"], against: row)
            Issue.record("an undeclared parameter passed")
        } catch let error as APIError {
            #expect(error.code == .unknownParameter && error.param == "status")
            #expect(error.message == "unknown query parameter 'status'; this route takes limit, metadata[<key>]")
        }
        let open = RouteContract(.post, "/hooks", passesQueryThrough: true, statuses: [200])
        try QueryContractMiddleware.check(["anything"], against: open)
    }

    @Test func theServerRefusesAMisspeltFilterInsteadOfListingEverything() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let typo = try await client.send(.get, "/v1/payments?stauts=failed", token: m.apiKey)
            #expect(typo.status == .badRequest && typo.errorCode == "unknown_parameter", "\(typo.text)")
            #expect((typo.json["error"] as? [String: Any])?["param"] as? String == "stauts")
            let fine = try await client.send(
                .get, "/v1/payments?status=failed&created%5Bgte%5D=0&metadata[order_no]=A&limit=5&reference=r",
                token: m.apiKey)
            #expect(fine.status == .ok, "\(fine.text)")
            let admin = try await client.send(
                .get, "/admin/v1/tenants?tenant=\(m.tenantId)", token: RouterWorld.operatorToken)
            #expect(admin.status == .badRequest && admin.errorCode == "unknown_parameter", "\(admin.text)")
            let audit = try await client.send(
                .get, "/admin/v1/audit?tenant=\(m.tenantId)", token: RouterWorld.operatorToken)
            #expect(audit.status == .ok, "\(audit.text)")
            let health = try await client.send(.get, "/health?verbose=1")
            #expect(health.status == .badRequest && health.errorCode == "unknown_parameter")
            let notification = try await client.send(
                .post, "/notifications/\(UUID().uuidString)?provider_ref=1", body: Data("a=b".utf8))
            #expect(notification.errorCode != "unknown_parameter", "\(notification.text)")
            let nowhere = try await client.send(.get, "/v1/nowhere?x=1", token: m.apiKey)
            #expect(nowhere.status == .notFound)
        }
    }
}
