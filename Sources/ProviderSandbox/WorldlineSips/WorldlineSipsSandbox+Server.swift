import Foundation
import Hummingbird

extension WorldlineSipsSandbox {
    /// Answers a sealed service call: identifies the merchant, checks key version, seal, seal algorithm
    /// and interface version, runs the service and seals the answer (or substitutes `99` under the
    /// `respond99` fault, after processing).
    func serve(_ request: Request, service: SipsService) async -> Response {
        let code = service.codeField
        guard let bytes = try? await SandboxHTTP.body(of: request), let json = SipsJSON.parse(bytes),
            let members = json.members
        else { return reject(request, nil, Self.codeOnly(code, "30", field: "body"), reason: "malformed JSON body") }
        let fields = SipsFields(members)
        guard let merchantId = members["merchantId"]?.stringValue, let merchant = merchantsById[merchantId] else {
            return reject(request, nil, Self.codeOnly(code, "03"), reason: "unknown merchant")
        }
        if let keyVersion = members["keyVersion"], Self.keyVersion(keyVersion) != merchant.keyVersion {
            return reject(request, merchantId, Self.codeOnly(code, "34"), reason: "unknown key version")
        }
        guard let seal = members["seal"]?.stringValue,
            WorldlineSipsSeal.verify(seal, of: json, secret: merchant.secretKey)
        else { return reject(request, merchantId, Self.codeOnly(code, "34"), reason: "seal mismatch") }
        guard members["keyVersion"] != nil else {
            return sealed(Self.codeOnly(code, "30", field: "keyVersion"), merchant)
        }
        if let algorithm = members["sealAlgorithm"], algorithm != .string("HMAC-SHA-256") {
            return sealed(Self.codeOnly(code, "30", field: "sealAlgorithm"), merchant)
        }
        guard let interfaceVersion = try? fields.optionalString("interfaceVersion"),
            interfaceVersion.hasPrefix(service.interfacePrefix), interfaceVersion.count > service.interfacePrefix.count
        else { return sealed(Self.codeOnly(code, "30", field: "interfaceVersion"), merchant) }
        let answer = await state.serve(
            service, merchantId: merchantId, fields: fields, interfaceVersion: interfaceVersion,
            baseURL: baseURL(of: request))
        await sendAutomaticResponses(for: answer.decided)
        if await state.takeRespond99(service.path) {
            logger.info("sips.fault.respond99", metadata: ["provider.account": .string(merchantId)])
            return sealed(Self.codeOnly(code, "99"), merchant)
        }
        return sealed(answer.body, merchant)
    }

    /// Answers an app call: sealed with the merchant of its init context when that is known.
    func serve(_ request: Request, function: SipsAppFunction) async -> Response {
        let code = function.codeField
        guard let bytes = try? await SandboxHTTP.body(of: request), let members = SipsJSON.parse(bytes)?.members else {
            return reject(request, nil, Self.codeOnly(code, "30", field: "body"), reason: "malformed JSON body")
        }
        let (merchantId, answer) = await state.serve(
            function, fields: SipsFields(members), baseURL: baseURL(of: request))
        await sendAutomaticResponses(for: answer.decided)
        guard let merchantId, let merchant = merchantsById[merchantId] else {
            return reject(request, merchantId, answer.body, reason: "unknown init context")
        }
        if await state.takeRespond99(function.faultName) {
            logger.info("sips.fault.respond99", metadata: ["provider.account": .string(merchantId)])
            return sealed(Self.codeOnly(code, "99"), merchant)
        }
        return sealed(answer.body, merchant)
    }

    /// `keyVersion` as an integer (a JSON integer or a string of digits).
    static func keyVersion(_ value: SipsJSON) -> Int? {
        if let number = value.integerValue { return Int(exactly: number) }
        return value.stringValue.flatMap { Int($0) }
    }

    /// `{<codeField>: code[, errorFieldName: field]}`.
    static func codeOnly(_ codeField: String, _ code: String, field: String? = nil) -> SipsObject {
        WorldlineSipsState.refusal(SipsFailure(code, field: field), codeField: codeField)
    }

    private func sealed(_ body: SipsObject, _ merchant: WorldlineSipsSandboxMerchant) -> Response {
        Self.json(WorldlineSipsSeal.sealed(body, secret: merchant.secretKey))
    }

    private func reject(_ request: Request, _ merchantId: String?, _ body: SipsObject, reason: String) -> Response {
        logger.info(
            "sips.request.rejected",
            metadata: [
                "provider.account": .string(merchantId ?? "-"), "http.path": .string(request.uri.path),
                "sips.reason": .string(reason),
            ])
        return Self.json(body.json)
    }

    static func json(_ value: SipsJSON) -> Response {
        SandboxHTTP.raw(value.bytes, status: .ok, contentType: "application/json")
    }

    /// `http://<host>` of the request, for the URLs the emulator hands out.
    func baseURL(of request: Request) -> String {
        "http://" + (request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!] ?? "127.0.0.1")
    }
}
