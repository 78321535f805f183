import Foundation
import Hummingbird
import SwitchyardCrypto

/// An answer of a server-API handler: HTTP status and JSON body.
struct WorldlineDirectAnswer: Sendable {
    var status: Int
    var body: [UInt8]

    init(status: Int = 200, _ value: some Encodable) {
        self.status = status
        self.body = Array((try? WorldlineDirectResponses.encoder.encode(value)) ?? Data("{}".utf8))
    }

    init(_ error: WorldlineDirectSandboxError, paymentResult: WDCreatePaymentResponse? = nil) {
        self.init(status: error.httpStatus, WorldlineDirectResponses.error(error, paymentResult: paymentResult))
    }

    var response: Response {
        SandboxHTTP.raw(body, status: HTTPResponse.Status(code: status), contentType: "application/json")
    }
}

extension WorldlineDirectSandbox {
    typealias ServerHandler = (WorldlineDirectSandboxMerchant, [UInt8]) async throws -> WorldlineDirectAnswer

    /// Authenticates a server call, applies idempotence to state-changing calls, runs `handler` and
    /// turns its errors into the provider's error body.
    func serve(
        _ request: Request,
        context: SandboxRequestContext,
        idempotent: Bool,
        handler: ServerHandler
    ) async -> Response {
        let merchant: WorldlineDirectSandboxMerchant
        do {
            merchant = try authenticate(request, pathMerchant: context.parameters.get("merchantId") ?? "")
        } catch {
            logger.info("worldline.auth.rejected", metadata: ["http.path": .string(request.uri.path)])
            return WorldlineDirectAnswer(error).response
        }
        let key = request.headers[HTTPFields.Element.Name("X-GCS-Idempotence-Key")!]
        guard idempotent, let key, !key.isEmpty else {
            return await run(handler, merchant: merchant, request: request).response
        }
        let startedAt = await state.now
        switch await state.beginIdempotent(merchantId: merchant.merchantId, key: key) {
        case .inProgress:
            return WorldlineDirectAnswer(.inProgress).response
        case .replay(let stored):
            var response = SandboxHTTP.raw(
                stored.body, status: HTTPResponse.Status(code: stored.status), contentType: "application/json")
            let millis = Int64((stored.firstRequestAt.timeIntervalSince1970 * 1000).rounded())
            response.headers[HTTPFields.Element.Name("X-GCS-Idempotence-Request-Timestamp")!] = String(millis)
            return response
        case .proceed:
            if configuration.processingDelay > .zero { try? await Task.sleep(for: configuration.processingDelay) }
            let answer = await run(handler, merchant: merchant, request: request)
            await state.finishIdempotent(
                merchantId: merchant.merchantId, key: key, status: answer.status, body: answer.body,
                startedAt: startedAt)
            return answer.response
        }
    }

    private func run(
        _ handler: ServerHandler, merchant: WorldlineDirectSandboxMerchant, request: Request
    ) async -> WorldlineDirectAnswer {
        do {
            let body = try await SandboxHTTP.body(of: request)
            return try await handler(merchant, body)
        } catch let error as WorldlineDirectSandboxError {
            return WorldlineDirectAnswer(error)
        } catch {
            return WorldlineDirectAnswer(.internalError)
        }
    }

    /// Verifies the `v1HMAC` signature and the `Date` of a server call.
    func authenticate(_ request: Request, pathMerchant: String) throws(WorldlineDirectSandboxError)
        -> WorldlineDirectSandboxMerchant
    {
        guard let (keyId, signature) = WorldlineDirectAuthenticator.parseAuthorization(request.headers[.authorization])
        else { throw .authentication("missing or malformed v1HMAC authorization") }
        guard let merchant = merchantsByKeyId[keyId] else { throw .authentication("unknown API key") }
        guard let dateText = request.headers[.date], let date = WorldlineDirectAuthenticator.parseHTTPDate(dateText)
        else { throw .authentication("missing or malformed Date header") }
        guard abs(date.timeIntervalSince(state.clock())) <= configuration.allowedDateSkew else {
            throw .authentication("Date header outside the allowed skew")
        }
        let headers = request.headers.map { (name: $0.name.canonicalName, value: $0.value) }
        let raw = request.head.path ?? request.uri.path
        var resources = [raw]
        if raw.hasPrefix("/" + name + "/") { resources.append(String(raw.dropFirst(name.count + 1))) }
        let verified = resources.contains { resource in
            let text = WorldlineDirectAuthenticator.stringToSign(
                method: request.method.rawValue, contentType: request.headers[.contentType], date: dateText,
                headers: headers, resource: resource)
            let expected = WorldlineDirectAuthenticator.signature(
                secretApiKey: merchant.secretApiKey, stringToSign: text)
            return constantTimeEquals(expected, signature)
        }
        guard verified else { throw .authentication("signature mismatch") }
        guard merchant.merchantId == pathMerchant else { throw .wrongMerchant }
        return merchant
    }

    /// `http://<host>` of the request, for URLs the sandbox hands out.
    func baseURL(of request: Request) -> String {
        "http://" + (request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!] ?? "127.0.0.1")
    }

    /// Decodes a JSON body (empty bodies decode from `{}`).
    func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(WorldlineDirectSandboxError) -> T {
        let data =
            bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ? Data("{}".utf8) : Data(bytes)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .invalid("body", "malformed JSON body")
        }
    }
}
