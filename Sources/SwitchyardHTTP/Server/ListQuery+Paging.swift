import Foundation
import Hummingbird
import SwitchyardCore

extension ListQuery {
    /// The page a list request asks for (see ``PageRequest/parse(_:statuses:)``), its items able to be in
    /// one of `statuses` (nil: the list has no status filter).
    static func page(_ request: Request, statuses: [String]? = nil) throws -> PageRequest {
        // Clients may send the brackets of `created[gte]` percent-encoded; names are compared decoded.
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            let decoded = String(name).removingPercentEncoding ?? String(name)
            if query[decoded] == nil { query[decoded] = String(value) }
        }
        return try PageRequest.parse({ query[$0] }, statuses: statuses)
    }

    /// The parts a list is asked to expand (`expand[]=attempts&expand[]=routing`; `expand[]` may be sent
    /// percent-encoded); `400 invalid_expand` naming `expand[]` for a value that is not one of `Part`.
    static func expansions<Part: RawRepresentable & Hashable & CaseIterable>(_ request: Request, _: Part.Type)
        throws -> Set<Part> where Part.RawValue == String
    {
        var parts: Set<Part> = []
        for (name, value) in request.uri.queryParameters
        where (String(name).removingPercentEncoding ?? String(name)) == "expand[]" {
            let text = String(value).removingPercentEncoding ?? String(value)
            guard let part = Part(rawValue: text) else {
                let known = Part.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError(.invalidExpand, "expand[] must be one of \(known)", param: "expand[]")
            }
            parts.insert(part)
        }
        return parts
    }

    /// The tenant a list is narrowed to (`?tenant=`), nil when absent; `400 invalid_parameter` when it is
    /// not the id of an existing tenant (never read as "every tenant").
    static func tenant(_ request: Request, tenants: TenantAdminService) async throws -> UUID? {
        guard let text = request.uri.queryParameters.get("tenant") else { return nil }
        let unknown = APIError(.invalidParameter, "tenant must be the id of a tenant", param: "tenant")
        guard let id = UUID(uuidString: text) else { throw unknown }
        do {
            _ = try await tenants.tenant(id: id)
        } catch let error as CoreError where error.code == .notFound {
            throw unknown
        }
        return id
    }
}

extension ListResource {
    /// The list of `page`'s items as `transform` shows them; `next_cursor` (the last item's id) when more
    /// older items follow.
    init<Source>(
        _ page: Page<Source>, _ request: PageRequest, id: (Source) -> String, _ transform: (Source) throws -> Item
    ) rethrows {
        let olderFollow: Bool
        if case .before = request.cursor { olderFollow = false } else { olderFollow = page.hasMore }
        self.init(
            data: try page.items.map(transform), hasMore: page.hasMore,
            nextCursor: olderFollow ? page.items.last.map(id) : nil)
    }
}
