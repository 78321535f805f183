import Foundation
import SwitchyardCore
import Testing

/// A failure of the storage behind a repository reaches the API as Core's ``StorageFailure``: a busy
/// store is `503 database_busy` with `Retry-After`, an unreachable one `503 database_unavailable` with
/// `Retry-After`, a text it cannot hold `400 invalid_text`, anything else a bare `500 internal_error` that
/// tells nothing of the failure. `/ready` follows the database; `/health` does not.
@Suite struct StorageFailureRouterTests {
    struct Failure: StorageFailure {
        var isBusy = false
        var isUnstorableText = false
        var isUnavailable = false
        var description: String { "storage failure at table payments" }
    }

    /// A merchant listing whose every read fails with `error`.
    struct FailingListing: PaymentRecordListing {
        var error: Failure

        func records(tenant: UUID, reference: String?, metadata: [String: String], page: PageRequest)
            async throws -> Page<PaymentRecord>
        {
            throw error
        }
    }

    @Test(arguments: [
        (Failure(isBusy: true), 503, "database_busy"),
        (Failure(isUnavailable: true), 503, "database_unavailable"),
        (Failure(isUnstorableText: true), 400, "invalid_text"),
        (Failure(), 500, "internal_error"),
    ])
    func aStorageFailureHasItsStatus(failure: Failure, status: Int, code: String) async throws {
        let world = RouterWorld(records: FailingListing(error: failure))
        try await world.test { client in
            let m = try await world.merchant(client)
            let reply = try await client.send(.get, "/v1/payments", token: m.apiKey)
            #expect(Int(reply.status.code) == status, "\(reply.text)")
            #expect(reply.errorCode == code)
            #expect(!reply.text.contains("payments"), "the failure's text stays in the logs")
            if failure.isBusy { #expect(reply.headers[.retryAfter] == "1") }
            if failure.isUnavailable { #expect(reply.headers[.retryAfter] == "2") }
            if !failure.isBusy && !failure.isUnavailable { #expect(reply.headers[.retryAfter] == nil) }
        }
    }

    @Test func readinessFollowsTheDatabaseAndHealthDoesNot() async throws {
        let world = RouterWorld()
        try await world.test { client in
            #expect(try await client.send(.get, "/ready").status == .ok)
            world.probes.set(answers: false)
            let down = try await client.send(.get, "/ready")
            #expect(down.status == .serviceUnavailable)
            #expect(down.json["database"] as? Bool == false)
            #expect(try await client.send(.get, "/health").status == .ok)
            world.probes.set(answers: true)
            #expect(try await client.send(.get, "/ready").status == .ok)
        }
    }
}
