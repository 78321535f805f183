import Foundation
import Hummingbird

extension CitconSandbox: SandboxEmulator {
    func merchant(for request: Request) async -> String? {
        guard let bearer = SandboxHTTP.bearer(of: request) else { return nil }
        return await state.merchant(forBearer: bearer)
    }

    func addRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.post("v1/access-tokens") { request, _ in await wire { try await issueToken(request) } }
        group.post("v1/charges") { request, _ in await wire { try await createCharge(request) } }
        group.post("v1/charges/:charge_token") { request, context in
            await wire { try await confirm(request, chargeToken: context.parameters.get("charge_token") ?? "") }
        }
        group.get("v1/transactions/:id") { request, context in
            await wire { try await inquire(request, id: context.parameters.get("id") ?? "") }
        }
        group.post("v1/captures") { request, _ in await wire { try await capture(request) } }
        group.post("v1/cancels") { request, _ in await wire { try await cancel(request) } }
        group.post("v1/refunds") { request, _ in await wire { try await refund(request) } }
    }

    // MARK: Handlers

    private func issueToken(_ request: Request) async throws(CitconSandboxError) -> CitconTokenData {
        let body = try await decode(CitconTokenRequest.self, from: request)
        guard let kind = CitconTokenKind(rawValue: body?.tokenType ?? "server") else {
            throw .invalid("token_type must be server or client")
        }
        let data = try await state.issueToken(privateKey: SandboxHTTP.bearer(of: request), kind: kind)
        if let merchant = await merchant(for: request) {
            logger.debug("citcon.token.issued", metadata: ["provider.account": .string(merchant)])
        }
        return data
    }

    private func createCharge(_ request: Request) async throws(CitconSandboxError) -> CitconChargeData {
        let merchant = try await state.authenticate(bearer: SandboxHTTP.bearer(of: request), serverOnly: false)
        guard let body = try await decode(CitconChargeRequest.self, from: request) else {
            throw .invalid("body required")
        }
        let input = try Self.validate(body)
        let charge = try await state.createCharge(merchant: merchant, input: input)
        logger.info("citcon.charge.created", metadata: ["provider.account": .string(merchant)])
        return CitconChargeData(charge: charge)
    }

    private func confirm(_ request: Request, chargeToken: String) async throws(CitconSandboxError) -> CitconChargeData {
        let merchant = try await state.authenticate(bearer: SandboxHTTP.bearer(of: request), serverOnly: false)
        let body = try await decode(CitconConfirmRequest.self, from: request)
        guard let method = body?.payment?.method, !method.isEmpty else { throw .invalid("payment.method required") }
        return CitconChargeData(charge: try await confirm(chargeToken: chargeToken, method: method, merchant: merchant))
    }

    private func inquire(_ request: Request, id: String) async throws(CitconSandboxError) -> CitconChargeData {
        let merchant = try await state.authenticate(bearer: SandboxHTTP.bearer(of: request), serverOnly: false)
        return CitconChargeData(charge: try await state.transaction(merchant: merchant, idOrReference: id))
    }

    private func capture(_ request: Request) async throws(CitconSandboxError) -> CitconCaptureData {
        let merchant = try await state.authenticate(bearer: SandboxHTTP.bearer(of: request), serverOnly: true)
        guard let body = try await decode(CitconCaptureRequest.self, from: request) else {
            throw .invalid("body required")
        }
        let reference = try Self.required(body.reference, "reference")
        let id = try Self.required(body.id, "id")
        let amount = try Self.positive(body.amount)
        let (data, event) = try await state.capture(merchant: merchant, id: id, reference: reference, amount: amount)
        await send(event)
        return data
    }

    private func cancel(_ request: Request) async throws(CitconSandboxError) -> CitconCancelData {
        let merchant = try await state.authenticate(bearer: SandboxHTTP.bearer(of: request), serverOnly: true)
        guard let body = try await decode(CitconCancelRequest.self, from: request) else {
            throw .invalid("body required")
        }
        let reference = try Self.required(body.reference, "reference")
        guard body.id != nil || body.transactionReference != nil else { throw .invalid("id required") }
        let (data, event) = try await state.cancel(
            merchant: merchant,
            id: body.id,
            reference: reference,
            transactionReference: body.transactionReference
        )
        await send(event)
        return data
    }

    private func refund(_ request: Request) async throws(CitconSandboxError) -> CitconRefundData {
        let merchant = try await state.authenticate(bearer: SandboxHTTP.bearer(of: request), serverOnly: true)
        guard let body = try await decode(CitconRefundRequest.self, from: request) else {
            throw .invalid("body required")
        }
        let reference = try Self.required(body.reference, "reference")
        guard body.id != nil || body.transactionReference != nil else { throw .invalid("id required") }
        let amount = try Self.positive(body.amount)
        let (data, event) = try await state.refund(
            merchant: merchant,
            id: body.id,
            reference: reference,
            amount: amount,
            transactionReference: body.transactionReference
        )
        await send(event)
        return data
    }

    // MARK: Validation and encoding

    private static func validate(_ body: CitconChargeRequest) throws(CitconSandboxError) -> CitconChargeInput {
        guard let transaction = body.transaction else { throw .invalid("transaction required") }
        let reference = try required(transaction.reference, "transaction.reference")
        let amount = try positive(transaction.amount)
        let currency = try required(transaction.currency, "transaction.currency").uppercased()
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .invalid("transaction.currency must be an ISO 4217 code")
        }
        let country = (transaction.country ?? "US").uppercased()
        guard country.count == 2 else { throw .invalid("transaction.country must be an ISO 3166 alpha-2 code") }
        let ipnURL = body.urls?.ipn ?? transaction.ipnURL
        if let ipnURL, URL(string: ipnURL)?.scheme == nil { throw .invalid("urls.ipn must be an absolute URL") }
        return CitconChargeInput(
            reference: reference,
            amount: amount,
            currency: currency,
            country: country,
            autoCapture: transaction.autoCapture ?? true,
            note: transaction.note,
            ipnURL: ipnURL,
            paymentMethod: body.payment?.method
        )
    }

    private static func required(_ value: String?, _ name: String) throws(CitconSandboxError) -> String {
        guard let value, !value.isEmpty else { throw .invalid("\(name) required") }
        return value
    }

    private static func positive(_ amount: Int64?) throws(CitconSandboxError) -> Int64 {
        guard let amount, amount > 0 else { throw .invalid("amount must be a positive integer") }
        return amount
    }

    /// Decodes the JSON body; nil for an empty body, `4000` when malformed.
    private func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(CitconSandboxError) -> T? {
        let bytes: [UInt8]
        do {
            bytes = try await SandboxHTTP.body(of: request)
        } catch {
            throw .invalid("unreadable body")
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw .invalid("malformed JSON body")
        }
    }

    /// Runs a handler and wraps its answer (or its failure) in Citcon's envelope.
    private func wire<T: Encodable>(_ handler: () async throws -> T) async -> Response {
        do {
            let data = try await handler()
            return SandboxHTTP.json(CitconEnvelope(status: "success", data: data), encoder: Self.wireEncoder)
        } catch {
            let error = error as? CitconSandboxError ?? .internalError
            let status = HTTPResponse.Status(code: error.httpStatus)
            let failure = CitconEnvelope(
                status: "fail", data: CitconFailureData(code: error.code, message: error.message))
            return SandboxHTTP.json(failure, status: status, encoder: Self.wireEncoder)
        }
    }

    private static let wireEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
