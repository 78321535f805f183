import Foundation
import Hummingbird

extension WorldlineDirectSandbox {
    private struct ResolveBody: Decodable {
        var approved: Bool?
    }

    private struct EncryptBody: Decodable {
        var clientSessionId: String
        var customerId: String
        var cardNumber: String
        var expiryDate: String
        var cvv: String?
        var cardholderName: String?
    }

    func addAdminRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.get("ledger") { request, _ in
            SandboxHTTP.json(await ledger(merchant: SandboxHTTP.query("merchant", of: request)))
        }
        group.get("payments/:id") { _, context in
            guard let payment = await payment(id: context.parameters.get("id") ?? "") else {
                return SandboxHTTP.text("not found", status: .notFound)
            }
            return SandboxHTTP.json(payment)
        }
        group.post("payments/:id/chargeback") { _, context in
            guard let payment = await chargeback(paymentID: context.parameters.get("id") ?? "") else {
                return SandboxHTTP.text("no captured payment with this id", status: .notFound)
            }
            return SandboxHTTP.json(payment)
        }
        group.post("payments/:id/resolve") { request, context in
            let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
            let body = try? SandboxHTTP.adminDecoder.decode(ResolveBody.self, from: Data(bytes))
            return await resolveAnswer(id: context.parameters.get("id") ?? "", approved: body?.approved ?? true)
        }
        group.get("challenge/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            let approved = SandboxHTTP.query("result", of: request) != "failure"
            let returnURL = await payment(id: id)?.returnURL
            let answer = await resolveAnswer(id: id, approved: approved)
            guard answer.status == .ok, let returnURL else { return answer }
            let separator = returnURL.contains("?") ? "&" : "?"
            return Response(
                status: .found, headers: [.location: returnURL + separator + "paymentId=" + id])
        }
        group.post("sessions/expire") { _, _ in
            await expireSessions()
            return Response(status: .noContent)
        }
        group.get("notifications") { _, _ in
            SandboxHTTP.json(await notificationAttempts())
        }
        group.post("encrypt") { request, _ in
            let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
            guard let body = try? SandboxHTTP.adminDecoder.decode(EncryptBody.self, from: Data(bytes)) else {
                return SandboxHTTP.json(
                    ["error": "expected clientSessionId, customerId, cardNumber, expiryDate"], status: .badRequest)
            }
            do {
                let jwe = try await encryptCustomerInput(
                    clientSessionId: body.clientSessionId, customerId: body.customerId,
                    card: WorldlineDirectCardInput(
                        cardNumber: body.cardNumber, expiryDate: body.expiryDate, cvv: body.cvv,
                        cardholderName: body.cardholderName))
                return SandboxHTTP.json(["encryptedCustomerInput": jwe])
            } catch let error as WorldlineDirectSandboxError {
                return WorldlineDirectAnswer(error).response
            } catch {
                return WorldlineDirectAnswer(.internalError).response
            }
        }
    }

    private func resolveAnswer(id: String, approved: Bool) async -> Response {
        do {
            return SandboxHTTP.json(try await resolve(paymentId: id, approved: approved))
        } catch let error as WorldlineDirectSandboxError {
            return WorldlineDirectAnswer(error).response
        } catch {
            return WorldlineDirectAnswer(.internalError).response
        }
    }
}
