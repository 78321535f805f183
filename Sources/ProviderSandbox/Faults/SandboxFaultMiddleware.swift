import Hummingbird
import Logging

/// Applies an emulator's fault rules to its wire requests before they reach the route handlers.
struct SandboxFaultMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let prefix: String
    let injector: SandboxFaultInjector
    let merchant: @Sendable (Request) async -> String?
    let unavailable: @Sendable () -> Response

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let fullPath = request.uri.path
        let innerPath = fullPath.hasPrefix(prefix) ? String(fullPath.dropFirst(prefix.count)) : fullPath
        let merchantID = await merchant(request)
        guard
            let fault = await injector.takeRequestFault(
                method: request.method.rawValue,
                path: innerPath,
                fullPath: fullPath,
                merchant: merchantID
            )
        else {
            return try await next(request, context)
        }
        context.logger.info(
            "sandbox.fault",
            metadata: [
                "fault.kind": .string(fault.kind.rawValue),
                "provider.account": .string(merchantID ?? "-"),
                "http.path": .string(fullPath),
            ]
        )
        switch fault.kind {
        case .latency:
            try await Task.sleep(for: fault.delay)
            return try await next(request, context)
        case .http500:
            return SandboxHTTP.text("internal server error", status: .internalServerError)
        case .http503:
            return SandboxHTTP.text("service unavailable", status: .serviceUnavailable)
        case .reset:
            await context.resetConnection()
            return Response(status: .internalServerError)
        case .timeoutAfterProcessing:
            let response = try await next(request, context)
            try await Task.sleep(for: fault.delay)
            return response
        case .timeoutBeforeProcessing:
            try await Task.sleep(for: fault.delay)
            return SandboxHTTP.text("gateway timeout", status: .gatewayTimeout)
        case .malformed:
            return SandboxHTTP.raw(
                Array("<html><body>upstream error".utf8),
                status: .ok,
                contentType: "application/json"
            )
        case .badSignature, .dropNotification, .decline:
            return try await next(request, context)
        case .unavailable:
            return unavailable()
        }
    }
}
