import Foundation
import Hummingbird

/// Logs one line per answered request: method, route template (never the path, which holds ids),
/// status and duration, on the request's logger (so with its `request.id`, and `trace.id` when traced).
/// A request whose client hung up before it was read is logged as `client closed request` (status 499).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = AppContext

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - started
        context.logger.info(
            response.status == ClientDisconnect.status ? "client closed request" : "request answered",
            metadata: [
                "http.method": "\(request.method.rawValue)", "http.route": "\(context.endpointPath ?? "unmatched")",
                "http.status": "\(response.status.code)",
                "http.duration_ms":
                    "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ])
        return response
    }
}
