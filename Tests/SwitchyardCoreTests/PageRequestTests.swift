import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

/// The one page request every list reads: its parsing (bad input is a named 400, never "no filter") and
/// the page it makes of what the store returns.
struct PageRequestTests {
    func parse(_ query: [String: String], statuses: [String]? = ["pending", "dead"]) throws -> PageRequest {
        try PageRequest.parse({ query[$0] }, statuses: statuses)
    }

    func code(_ query: [String: String], statuses: [String]? = ["pending", "dead"]) -> ErrorCode? {
        do {
            _ = try parse(query, statuses: statuses)
            return nil
        } catch let error as CoreError {
            return error.code
        } catch {
            return .internalError
        }
    }

    @Test func defaultsComeFromOnePlace() throws {
        let request = try parse([:])
        #expect(request == PageRequest(limit: PageRequest.defaultLimit))
        #expect(request.cursor == nil && request.status == nil && request.created == .init())
    }

    @Test func everyParameterIsRead() throws {
        let request = try parse([
            "limit": "5", "ending_before": "whd_1", "created[gte]": "1700000000",
            "created[lt]": "2026-01-31T00:00:00Z", "created[gt]": "2026-01-01T00:00:00.250Z", "status": "dead",
        ])
        #expect(request.limit == 5)
        #expect(request.cursor == .before("whd_1"))
        #expect(request.created.gte == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(request.created.lt == Date(timeIntervalSince1970: 1_769_817_600))
        #expect(request.created.gt == Date(timeIntervalSince1970: 1_767_225_600.25))
        #expect(request.created.lte == nil)
        #expect(request.status == "dead")
        #expect(try parse(["starting_after": "evt_9"]).cursor == .after("evt_9"))
    }

    @Test func malformedParametersAreRefusedWithAStableCode() {
        #expect(code(["limit": "0"]) == .invalidLimit)
        #expect(code(["limit": "\(PageRequest.maximumLimit + 1)"]) == .invalidLimit)
        #expect(code(["limit": "ten"]) == .invalidLimit)
        #expect(code(["starting_after": "a", "ending_before": "b"]) == .invalidParameter)
        #expect(code(["starting_after": ""]) == .invalidParameter)
        #expect(code(["ending_before": String(repeating: "x", count: 129)]) == .invalidParameter)
        #expect(code(["created[gte]": "yesterday"]) == .invalidParameter)
        #expect(code(["created[lte]": "2026-13-01T00:00:00Z"]) == .invalidParameter)
        #expect(code(["status": "lost"]) == .invalidStatus)
        #expect(code(["status": "dead"], statuses: nil) == .invalidStatus, "a list without statuses")
    }

    @Test func theMessageNamesTheParameter() {
        #expect(throws: CoreError.self) { try parse(["created[gt]": "x"]) }
        do {
            _ = try parse(["created[gt]": "x"])
        } catch let error as CoreError {
            #expect(error.message.hasPrefix("created[gt]") && error.param == "created[gt]")
        } catch {}
    }

    @Test func aPageKeepsTheLimitAndSaysWhetherMoreFollow() {
        let forward = PageRequest(limit: 2)
        #expect(forward.page([3, 2, 1]).items == [3, 2])
        #expect(forward.page([3, 2, 1]).hasMore)
        #expect(!forward.page([3, 2]).hasMore)
        // An ending_before page comes from the store oldest first and is shown newest first.
        let backward = PageRequest(limit: 2, cursor: .before("x"))
        #expect(backward.page([4, 5, 6]).items == [5, 4])
        #expect(backward.page([4, 5, 6]).hasMore)
    }

    @Test func theInMemoryTwinFiltersOrdersAndCutsAfterTheCursor() throws {
        struct Item: Equatable {
            var id: String
            var at: Double
            var status: String
        }
        let items = (0..<6).map { Item(id: "i\($0)", at: Double($0 / 2), status: $0 % 2 == 0 ? "pending" : "dead") }
        func ids(_ request: PageRequest) throws -> [String] {
            try request.page(
                request.select(
                    items, id: \.id, created: { Date(timeIntervalSince1970: $0.at) }, status: \.status)
            ).items.map(\.id)
        }
        #expect(try ids(PageRequest(limit: 10)) == ["i5", "i4", "i3", "i2", "i1", "i0"], "(created, id) descending")
        #expect(try ids(PageRequest(limit: 2, cursor: .after("i4"))) == ["i3", "i2"])
        #expect(try ids(PageRequest(limit: 2, cursor: .before("i1"))) == ["i3", "i2"])
        #expect(try ids(PageRequest(limit: 10, status: "dead")) == ["i5", "i3", "i1"])
        #expect(
            try ids(PageRequest(limit: 10, created: .init(gte: Date(timeIntervalSince1970: 1)))) == [
                "i5", "i4", "i3", "i2",
            ])
        let missing = CoreError(
            .invalidParameter, "starting_after must be the id of an item of this list", param: "starting_after")
        #expect(throws: missing) {
            try ids(PageRequest(cursor: .after("missing")))
        }
    }
}
