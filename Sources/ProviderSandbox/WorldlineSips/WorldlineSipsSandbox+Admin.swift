import Foundation
import Hummingbird

extension WorldlineSipsSandbox {
    private struct ResolveBody: Decodable {
        var approved: Bool?
        var approve: Bool?
    }

    private struct AuthenticateBody: Decodable {
        var paReqMessage: String
        var approve: Bool?
        var approved: Bool?
    }

    private struct Respond99Body: Decodable {
        var service: String
        var count: Int?
    }

    func addAdminRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.post("transactions/:merchantId/:reference/resolve") { request, context in
            let body = await Self.decode(ResolveBody.self, request)
            do throws(WorldlineSipsSandboxError) {
                return SandboxHTTP.json(
                    try await resolve(
                        merchantId: context.parameters.get("merchantId") ?? "",
                        transactionReference: context.parameters.get("reference") ?? "",
                        approved: body?.approved ?? body?.approve ?? true))
            } catch {
                return Self.adminError(error)
            }
        }
        group.get("transactions/:merchantId/:reference") { _, context in
            guard
                let found = await transaction(
                    merchantId: context.parameters.get("merchantId") ?? "",
                    transactionReference: context.parameters.get("reference") ?? "")
            else { return Self.adminError(.transactionNotFound) }
            return SandboxHTTP.json(found)
        }
        group.get("wallets/:merchantId/:walletId") { _, context in
            guard
                let found = await wallet(
                    merchantId: context.parameters.get("merchantId") ?? "",
                    merchantWalletId: context.parameters.get("walletId") ?? "")
            else {
                return Self.adminError(.init(code: "WALLET_NOT_FOUND", message: "unknown wallet", httpStatus: 404))
            }
            return SandboxHTTP.json(found)
        }
        group.get("ledger") { request, _ in
            SandboxHTTP.json(await ledger(merchant: SandboxHTTP.query("merchant", of: request)))
        }
        group.get("notifications") { _, _ in
            SandboxHTTP.json(await notificationAttempts())
        }
        group.post("inits/expire") { _, _ in
            await expireInits()
            return Response(status: .noContent)
        }
        group.post("acs/authenticate") { request, _ in
            guard let body = await Self.decode(AuthenticateBody.self, request) else {
                return Self.adminError(.invalidRequest("expected {\"paReqMessage\":…,\"approve\":true|false}"))
            }
            do throws(WorldlineSipsSandboxError) {
                let paRes = try await authenticate(
                    paReqMessage: body.paReqMessage, approve: body.approve ?? body.approved ?? true)
                return SandboxHTTP.json(["paResMessage": paRes])
            } catch {
                return Self.adminError(error)
            }
        }
        group.post("faults/respond99") { request, _ in
            guard let body = await Self.decode(Respond99Body.self, request) else {
                return Self.adminError(.invalidRequest("expected {\"service\":…,\"count\":1}"))
            }
            do throws(WorldlineSipsSandboxError) {
                try await respond99(service: body.service, count: body.count ?? 1)
                return SandboxHTTP.json(await pendingRespond99())
            } catch {
                return Self.adminError(error)
            }
        }
        group.get("faults/respond99") { _, _ in
            SandboxHTTP.json(await pendingRespond99())
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async -> T? {
        let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
        return try? SandboxHTTP.adminDecoder.decode(T.self, from: Data(bytes))
    }

    private static func adminError(_ error: WorldlineSipsSandboxError) -> Response {
        SandboxHTTP.json(
            ["error": error.message, "code": error.code], status: HTTPResponse.Status(code: error.httpStatus))
    }
}
