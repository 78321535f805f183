import Foundation
import HTTPTypes
import ProviderKit
import Synchronization
import Testing

@testable import SwitchyardHTTP

/// The statuses a route declares in its ``RouteContract`` are honest: every route is driven with a
/// representative set of requests (no credentials, ids naming nothing, the merchant's own resources, an
/// empty body, an unknown query parameter, and a few valid writes), and each status answered must be one
/// the route declares and `openapi.json` documents; so must each header it answers with.
@Suite struct DeclaredStatusTests {
    /// One request sent and its answer.
    struct Answer: Sendable {
        var row: RouteContract
        var request: String
        var status: Int
        /// The names of the response's headers, in lower case.
        var headers: Set<String>
    }

    /// Headers of HTTP itself, which no contract lists.
    static let transportHeaders: Set<String> = [
        "content-type", "content-length", "date", "server", "connection", "transfer-encoding",
    ]

    @Test func everyAnsweredHeaderIsDeclaredAndDocumented() async throws {
        let world = RouterWorld()
        let document = try OpenAPIOperations.load()
        let answers = try await Self.drive(world)
        for answer in answers {
            let declared = Set(answer.row.responseHeaders.map { $0.lowercased() })
            let documented = Set(
                (document.operation(answer.row.method, answer.row.path)?.responseHeaders ?? []).map {
                    $0.lowercased()
                })
            for header in answer.headers.subtracting(Self.transportHeaders) {
                #expect(declared.contains(header), "\(answer.request) answered \(header), undeclared")
                #expect(documented.contains(header), "\(answer.request) answered \(header), undocumented")
            }
        }
        let versioned = answers.filter { $0.row.path.hasPrefix("/v1/") && (200..<300).contains($0.status) }
        #expect(!versioned.isEmpty && versioned.allSatisfy { $0.headers.contains("switchyard-version") })
    }

    @Test func everyAnsweredStatusIsDeclaredAndDocumented() async throws {
        let world = RouterWorld()
        let document = try OpenAPIOperations.load()
        let answers = try await Self.drive(world)
        for answer in answers {
            #expect(
                answer.row.statuses.contains(answer.status),
                "\(answer.request) answered \(answer.status), which \(answer.row.key) does not declare")
            #expect(
                document.operation(answer.row.method, answer.row.path)?.statuses.contains(answer.status) == true,
                "\(answer.request) answered \(answer.status), which openapi.json does not document")
        }
        #expect(Set(answers.map(\.row.key)) == Set(RouteContracts.all.map(\.key)), "a route was not driven")
        #expect(Set(answers.map(\.status)).isSuperset(of: [200, 201, 400, 401, 404, 409]))
        let created = answers.first { $0.row.key == "POST /v1/payments" }
        #expect(created?.status == 201, "the valid payment was refused")
    }

    /// Sends every route its representative requests, then the valid writes, and returns the answers.
    static func drive(_ world: RouterWorld) async throws -> [Answer] {
        let answers = Mutex<[Answer]>([])
        try await world.test { client in
            let m = try await world.merchant(client)
            let payment = try await world.authorizedPayment(client, m)
            var sent = 0
            func send(_ row: RouteContract, ids: [String: String], token: String?, query: String = "", json: Any?)
                async throws
            {
                sent += 1
                var path = row.path
                for (name, value) in ids { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
                let key = RouteContract.Header.idempotencyKey
                let headers = row.requestHeaders.contains(key) ? [key: "key-\(sent)"] : [:]
                let reply = try await client.send(row.method, path + query, token: token, json, headers: headers)
                let answer = Answer(
                    row: row, request: "\(row.method.rawValue) \(path + query)", status: Int(reply.status.code),
                    headers: Set(reply.headers.map { $0.name.canonicalName.lowercased() }))
                answers.withLock { $0.append(answer) }
            }
            let own = [
                "tenant": m.tenantId, "account": m.accountId, "id": payment, "customer": "cus_1", "pm": "pm_missing",
                "key": UUID().uuidString, "endpoint": "we_missing", "event": "evt_missing",
            ]
            let missing = own.mapValues { $0.contains("_") ? $0 : UUID().uuidString }.merging(["id": "pay_missing"]) {
                $1
            }
            let valid: [(RouteContract?, Any?)] = [
                (RouteContracts.contract(.post, "/v1/payments/{id}/capture"), ["amount": 1_000]),
                (RouteContracts.contract(.post, "/v1/payments/{id}/refunds"), ["amount": 100]),
                (RouteContracts.contract(.post, "/v1/payments"), RouterWorld.payment(reference: "order-2")),
                (RouteContracts.contract(.post, "/admin/v1/tenants"), ["name": "Other"]),
            ]
            world.gateway.script(.capture, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            world.gateway.script(.refund, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-2"))
            for (row, body) in valid {
                try await send(try #require(row), ids: own, token: token(for: try #require(row), m), json: body)
            }
            let writes: Set<HTTPRequest.Method> = [.post, .put, .patch]
            for row in RouteContracts.all.sorted(by: { ($0.method == .get ? 0 : 1) < ($1.method == .get ? 0 : 1) }) {
                let token = token(for: row, m)
                let body: Any? = writes.contains(row.method) ? [String: Any]() : nil
                if token != nil { try await send(row, ids: own, token: nil, json: body) }
                try await send(row, ids: missing, token: token, json: body)
                try await send(row, ids: own, token: token, query: "?unknown_filter=1", json: body)
                try await send(row, ids: own, token: token, json: body)
            }
        }
        return answers.withLock { $0 }
    }

    /// The credential a route takes: the operator's token for the operator API, the merchant's key for
    /// `/v1`, none elsewhere.
    static func token(for row: RouteContract, _ m: Merchant) -> String? {
        if row.path.hasPrefix("/admin/") || row.path == "/metrics" { return RouterWorld.operatorToken }
        return row.path.hasPrefix("/v1/") ? m.apiKey : nil
    }
}
