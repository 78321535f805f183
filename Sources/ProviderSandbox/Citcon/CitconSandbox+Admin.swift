import Foundation
import Hummingbird

extension CitconSandbox {
    private struct ConfirmBody: Decodable {
        var method: String?
    }

    private struct ChargebackBody: Decodable {
        var status: String
        var amount: Int64?
    }

    private struct TokenCounts: Encodable {
        var issued: [String: [String: Int]]
    }

    func addAdminRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.get("ledger") { request, _ in
            SandboxHTTP.json(await ledger(merchant: SandboxHTTP.query("merchant", of: request)))
        }
        group.get("tokens") { _, _ in
            SandboxHTTP.json(TokenCounts(issued: await state.tokenCountsByMerchant()))
        }
        group.post("tokens/expire") { request, _ in
            await expireTokens(merchant: SandboxHTTP.query("merchant", of: request))
            return Response(status: .noContent)
        }
        group.get("charges/:id") { _, context in
            guard let charge = await charge(id: context.parameters.get("id") ?? "") else {
                return SandboxHTTP.text("not found", status: .notFound)
            }
            return SandboxHTTP.json(charge)
        }
        group.post("confirm/:charge_token") { request, context in
            let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
            let body = bytes.isEmpty ? nil : try? SandboxHTTP.adminDecoder.decode(ConfirmBody.self, from: Data(bytes))
            do throws(CitconSandboxError) {
                let charge = try await confirm(
                    chargeToken: context.parameters.get("charge_token") ?? "",
                    method: body?.method ?? "alipay",
                    merchant: nil
                )
                return SandboxHTTP.json(charge)
            } catch {
                return SandboxHTTP.json(
                    ["code": error.code, "message": error.message] as [String: String],
                    status: HTTPResponse.Status(code: error.httpStatus)
                )
            }
        }
        group.post("chargebacks/:charge_id") { request, context in
            let bytes = (try? await SandboxHTTP.body(of: request)) ?? []
            guard let body = try? SandboxHTTP.adminDecoder.decode(ChargebackBody.self, from: Data(bytes)) else {
                return SandboxHTTP.text("body must be {\"status\": …, \"amount\": optional}", status: .badRequest)
            }
            do throws(CitconSandboxError) {
                let chargeback = try await chargeback(
                    chargeID: context.parameters.get("charge_id") ?? "", status: body.status, amount: body.amount)
                return SandboxHTTP.json(chargeback)
            } catch {
                return SandboxHTTP.json(
                    ["code": error.code, "message": error.message] as [String: String],
                    status: HTTPResponse.Status(code: error.httpStatus))
            }
        }
        group.get("notifications") { _, _ in
            SandboxHTTP.json(await notificationAttempts())
        }
    }
}
