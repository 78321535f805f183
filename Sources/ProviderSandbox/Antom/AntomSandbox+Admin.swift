import Foundation
import Hummingbird

extension AntomSandbox {
    private struct OpenDisputeBody: Decodable {
        var type: String?
        var reasonCode: String?
        var dueInSeconds: Int?
        var amount: Int64?
    }

    private struct NotifyDisputeBody: Decodable {
        var type: String
        var judgedResult: String?
    }

    private struct ApproveBody: Decodable {
        var approve: Bool?
        var approved: Bool?
    }

    private struct SessionView: Encodable {
        var paymentSessionId: String
        var paymentId: String
        var clientId: String
        var expiresAt: Date
        var completed: Bool
        var closed: Bool
        var agreement: Bool
    }

    func addAdminRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.get("public-key") { _, _ in
            do throws(AntomSandboxError) {
                let key = try await publicKey()
                return SandboxHTTP.json(["publicKey": key.spkiBase64, "pem": key.pem])
            } catch {
                return Self.adminError(error)
            }
        }
        group.get("sessions/:id") { _, context in
            guard let session = await state.session(id: context.parameters.get("id") ?? "") else {
                return Self.adminError(.sessionNotFound)
            }
            return SandboxHTTP.json(
                SessionView(
                    paymentSessionId: session.id, paymentId: session.paymentId, clientId: session.clientId,
                    expiresAt: session.expiresAt, completed: session.completed, closed: session.closed,
                    agreement: session.authState != nil))
        }
        group.post("sessions/:id/complete") { request, context in
            let body = await Self.decode(ApproveBody.self, request)
            do throws(AntomSandboxError) {
                return SandboxHTTP.json(
                    try await completeSession(
                        paymentSessionId: context.parameters.get("id") ?? "", approve: body?.approve ?? true))
            } catch {
                return Self.adminError(error)
            }
        }
        group.post("sessions/expire") { _, _ in
            await expireSessions()
            return Response(status: .noContent)
        }
        group.post("tokens/:token/cancel") { _, context in
            do throws(AntomSandboxError) {
                let token = try await cancelToken(context.parameters.get("token") ?? "")
                return SandboxHTTP.json(["status": token.status.rawValue, "authState": token.authState])
            } catch {
                return Self.adminError(error)
            }
        }
        group.post("vaulting/:id/complete") { request, context in
            guard let card = await Self.decode(AntomCardInput.self, request) else {
                return Self.adminError(.cardInvalid("expected cardNumber, expiryMonth, expiryYear, cvv, holderName"))
            }
            do throws(AntomSandboxError) {
                return SandboxHTTP.json(
                    try await completeVaulting(vaultingSessionId: context.parameters.get("id") ?? "", card: card))
            } catch {
                return Self.adminError(error)
            }
        }
        group.post("payments/:id/resolve") { request, context in
            let body = await Self.decode(ApproveBody.self, request)
            do throws(AntomSandboxError) {
                return SandboxHTTP.json(
                    try await resolve(
                        paymentId: context.parameters.get("id") ?? "", approved: body?.approved ?? body?.approve ?? true
                    ))
            } catch {
                return Self.adminError(error)
            }
        }
        group.get("payments/:id") { _, context in
            guard let payment = await payment(id: context.parameters.get("id") ?? "") else {
                return Self.adminError(.paymentNotFound)
            }
            return SandboxHTTP.json(payment)
        }
        group.post("payments/:id/disputes") { request, context in
            guard let body = await Self.decode(OpenDisputeBody.self, request) else {
                return Self.adminError(
                    .disputeInput("expected {\"type\", \"reasonCode\", \"dueInSeconds\", \"amount\"}"))
            }
            do throws(AntomSandboxError) {
                return SandboxHTTP.json(
                    try await openDispute(
                        paymentId: context.parameters.get("id") ?? "", type: body.type ?? "CHARGEBACK",
                        reasonCode: body.reasonCode ?? "4853", dueIn: TimeInterval(body.dueInSeconds ?? 7 * 86_400),
                        amount: body.amount))
            } catch {
                return Self.adminError(error)
            }
        }
        group.post("disputes/:id/notify") { request, context in
            guard let body = await Self.decode(NotifyDisputeBody.self, request) else {
                return Self.adminError(.disputeInput("expected {\"type\", \"judgedResult\"}"))
            }
            do throws(AntomSandboxError) {
                return SandboxHTTP.json(
                    try await moveDispute(
                        id: context.parameters.get("id") ?? "", type: body.type, judgedResult: body.judgedResult))
            } catch {
                return Self.adminError(error)
            }
        }
        group.get("disputes/:id") { _, context in
            guard let dispute = await dispute(id: context.parameters.get("id") ?? "") else {
                return Self.adminError(.disputeNotFound)
            }
            return SandboxHTTP.json(dispute)
        }
        group.get("ledger") { request, _ in
            SandboxHTTP.json(await ledger(merchant: SandboxHTTP.query("merchant", of: request)))
        }
        group.get("notifications") { _, _ in
            SandboxHTTP.json(await notificationAttempts())
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async -> T? {
        let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
        return try? SandboxHTTP.adminDecoder.decode(T.self, from: Data(bytes))
    }

    private static func adminError(_ error: AntomSandboxError) -> Response {
        SandboxHTTP.json(
            ["error": error.message, "code": error.code], status: HTTPResponse.Status(code: error.httpStatus))
    }
}
