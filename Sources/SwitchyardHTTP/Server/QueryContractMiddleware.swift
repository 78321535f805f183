import Foundation
import Hummingbird

/// Refuses a query parameter the matched route does not declare in its ``RouteContract`` with
/// `400 unknown_parameter` naming it, so that a misspelt filter (`?stauts=failed`) is an error rather than
/// an unfiltered answer. Names are compared percent-decoded (`created%5Bgte%5D` is `created[gte]`).
/// Requests matching no route pass on to their `404`.
struct QueryContractMiddleware: RouterMiddleware {
    typealias Context = AppContext

    let contracts: @Sendable (HTTPRequest.Method, String) -> RouteContract?

    init(contracts: @escaping @Sendable (HTTPRequest.Method, String) -> RouteContract? = RouteContracts.contract) {
        self.contracts = contracts
    }

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        if request.uri.query != nil, let path = context.endpointPath, let contract = contracts(request.method, path) {
            try Self.check(request.uri.queryParameters.map { String($0.key) }, against: contract)
        }
        return try await next(request, context)
    }

    /// Throws `400 unknown_parameter` for the first of `names` (still percent-encoded) `contract` does not
    /// take.
    static func check(_ names: some Sequence<String>, against contract: RouteContract) throws {
        for raw in names {
            let name = raw.removingPercentEncoding ?? raw
            guard !contract.accepts(parameter: name) else { continue }
            let shown = name.count <= 100 ? name : name.prefix(100) + "…"
            let known = contract.query.map(\.shownName)
            throw APIError(
                .unknownParameter,
                known.isEmpty
                    ? "unknown query parameter '\(shown)'; this route takes none"
                    : "unknown query parameter '\(shown)'; this route takes \(known.joined(separator: ", "))",
                param: shown)
        }
    }
}
