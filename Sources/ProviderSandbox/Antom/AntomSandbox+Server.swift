import Foundation
import Hummingbird
import SwitchyardCrypto

extension AntomSandbox {
    /// An authenticated wire call.
    struct Call: Sendable {
        let merchant: AntomSandboxMerchant
        /// The exact body bytes.
        let body: [UInt8]
        /// The body as canonical JSON, compared by idempotency.
        let canonical: String
        /// `http://<host>` of the request, for URLs the emulator hands out.
        let baseURL: String

        var clientId: String { merchant.clientId }
    }

    typealias Handler = @Sendable (Call) async throws -> AntomReply

    static let clientIdHeader = HTTPFields.Element.Name("client-id")!
    static let requestTimeHeader = HTTPFields.Element.Name("request-time")!
    static let responseTimeHeader = HTTPFields.Element.Name("response-time")!
    static let signatureHeader = HTTPFields.Element.Name("signature")!

    /// Authenticates a wire call, runs `handler`, sends the notifications it produced and signs the answer.
    func serve(_ request: Request, handler: Handler) async -> Response {
        guard let clientId = request.headers[Self.clientIdHeader], let merchant = merchantsById[clientId] else {
            return reject(request, .invalidClient, reason: "unknown client id")
        }
        guard let header = AntomSignature.parseHeader(request.headers[Self.signatureHeader]),
            header.algorithm.map({ $0.uppercased() == "RSA256" }) ?? true
        else { return reject(request, .invalidSignature, reason: "missing or malformed signature header") }
        if let version = header.keyVersion, version != merchant.keyVersion {
            return reject(request, .keyNotFound, reason: "unknown key version")
        }
        guard let time = request.headers[Self.requestTimeHeader], !time.isEmpty else {
            return reject(request, .invalidSignature, reason: "missing request-time")
        }
        guard let body = try? await SandboxHTTP.body(of: request) else {
            return reject(request, .paramIllegal("the body is too large"), reason: "body too large")
        }
        guard let key = merchantKeys[clientId] else {
            return reject(request, .invalidSignature, reason: "unreadable merchant key")
        }
        let signedPath = Self.signablePaths(of: request).first { path in
            let content = AntomSignature.content(method: "POST", path: path, clientId: clientId, time: time, body: body)
            return AntomSignature.verify(header.signature, content: content, with: key)
        }
        guard let signedPath else { return reject(request, .invalidSignature, reason: "signature mismatch") }
        guard let canonical = AntomInput.canonical(body) else {
            return await signed(
                AntomReply(result: .paramIllegal("the body is not a JSON object")), merchant, signedPath)
        }
        let call = Call(merchant: merchant, body: body, canonical: canonical, baseURL: baseURL(of: request))
        let reply: AntomReply
        do {
            reply = try await handler(call)
        } catch let error as AntomRequestError {
            reply = AntomReply(result: error.result)
        } catch {
            reply = AntomReply(result: .unknownException)
        }
        await notify(reply.events)
        return await signed(reply, merchant, signedPath)
    }

    /// The paths a client may have signed: the path received (with its query), and the same without the
    /// `/antom` mount when it was called through it.
    static func signablePaths(of request: Request) -> [String] {
        var path = request.uri.path
        if let query = request.uri.query, !query.isEmpty { path += "?" + query }
        var paths = [path]
        if path.hasPrefix("/antom/") { paths.append(String(path.dropFirst("/antom".count))) }
        return paths
    }

    /// An answer signed with Antom's key over the path the client signed.
    private func signed(_ reply: AntomReply, _ merchant: AntomSandboxMerchant, _ path: String) async -> Response {
        let time = AntomTime.format(state.clock())
        let content = AntomSignature.content(
            method: "POST", path: path, clientId: merchant.clientId, time: time, body: reply.body)
        guard let key = try? await state.signingKey(), let signature = try? AntomSignature.sign(content, with: key)
        else {
            logger.error("antom.sign.failed", metadata: ["provider.account": .string(merchant.clientId)])
            return Self.unsigned(AntomResult.unknownException)
        }
        var response = SandboxHTTP.raw(reply.body, status: .ok, contentType: "application/json; charset=UTF-8")
        response.headers[Self.clientIdHeader] = merchant.clientId
        response.headers[Self.responseTimeHeader] = time
        response.headers[Self.signatureHeader] = AntomSignature.headerValue(
            keyVersion: merchant.keyVersion, signature: signature)
        return response
    }

    private func reject(_ request: Request, _ result: AntomResult, reason: String) -> Response {
        logger.info(
            "antom.request.rejected",
            metadata: [
                "provider.account": .string(request.headers[Self.clientIdHeader] ?? "-"),
                "http.path": .string(request.uri.path), "antom.reason": .string(reason),
            ])
        return Self.unsigned(result)
    }

    /// An unsigned HTTP 200 answer carrying only `result` (for calls that could not be authenticated).
    static func unsigned(_ result: AntomResult) -> Response {
        SandboxHTTP.raw(
            AntomJSON.encode(AntomResultOnly(result: result)), status: .ok,
            contentType: "application/json; charset=UTF-8")
    }

    /// `http://<host>` of the request.
    func baseURL(of request: Request) -> String {
        "http://" + (request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!] ?? "127.0.0.1")
    }
}
