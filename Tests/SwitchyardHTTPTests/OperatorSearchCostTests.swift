import Foundation
import SwitchyardStore
import Testing

/// The database cost of the operator's payment search, counted per tenant with a ``PGWatch``: the hits of
/// one tenant are read together, so the search costs the same queries whatever their number.
@Suite(.serialized)
struct OperatorSearchCostTests {
    @Test func aSearchCostsTheSameQueriesWhateverTheNumberOfHits() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let tenant = try #require(UUID(uuidString: m.tenantId))
            let payment = { (reference: String) in
                ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": reference]
                    as [String: Any]
            }
            _ = try await stack.createPayment(m, payment("single"))
            for _ in 0..<3 { _ = try await stack.createPayment(m, payment("many")) }
            let store = stack.runtime.store
            var tallies: [PGWatch.Tally] = []
            for (reference, hits) in [("single", 1), ("many", 3)] {
                let watch = store.watchTenant(tenant)
                let reply = try await stack.send(
                    .GET, "/admin/v1/payments?reference=\(reference)", token: stack.operatorToken)
                store.databasePool.unwatch(watch)
                #expect(reply.status == 200)
                #expect((reply.json["data"] as? [Any])?.count == hits)
                tallies.append(watch.tally)
            }
            #expect(tallies[0] == tallies[1], "\(tallies)")
            #expect(tallies[1].transactions == 1, "\(tallies)")
        }
    }
}
