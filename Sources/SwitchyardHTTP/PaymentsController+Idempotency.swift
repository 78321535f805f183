import Foundation
import HTTPTypes
import Hummingbird
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore

extension PaymentsController {
    /// Runs a mutating request under the `Idempotency-Key` rules: the same key and body replay the stored
    /// response; the same key with another body is a 409; a key still running is a 409 with `Retry-After`.
    /// A running request holds its key for the policy's lease (`idempotency.lease_ms`); after it, the same key
    /// and body take the key over and resume as `resume` says, so a request that died never blocks its key
    /// for ever and is never done twice.
    ///
    /// A key is scoped by tenant, method and the route that matched with its parameters (see
    /// ``scopedKey(method:route:parameters:key:)``), so every spelling of a path (`/v1/payments/`,
    /// `//v1/payments`) shares one key. A replayed payment or payment method is rendered from its current
    /// record, so a replay never hands out a client session that has expired since.
    func idempotent(
        _ request: Request, _ context: AppContext, resume: IdempotentResume = .fresh,
        _ body: @escaping (APIKey, Data) async throws -> Encoded
    ) async throws -> Response {
        let key = try await auth.requireTenant(request, scope: .payments)
        let data = try await JSONIO.body(request, limit: bodyLimit)
        guard let idempotencyKey = request.headers[HTTPField.Name("Idempotency-Key")!] else {
            let encoded = try await body(key, data)
            return JSONIO.raw(encoded.status, encoded.data)
        }
        guard !idempotencyKey.isEmpty, idempotencyKey.utf8.count <= 255,
            idempotencyKey.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else {
            throw APIError(
                .badRequest, "invalid_idempotency_key",
                "Idempotency-Key must be 1 to 255 printable ASCII characters")
        }
        let scopedKey = Self.scopedKey(
            method: request.method, route: context.endpointPath, parameters: context.parameters, key: idempotencyKey)
        let claim = IdempotencyClaimant(
            store: store, tenant: key.tenantId, key: scopedKey, owner: UUID().uuidString.lowercased())
        let lease = service.policy.platform.idempotency.lease
        var takeover: IdempotencyTakeover?
        switch try await store.claimIdempotent(
            tenant: key.tenantId, key: scopedKey, requestHash: Self.requestHash(data), owner: claim.owner,
            lease: lease)
        {
        case .replay(let status, let stored):
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            let current = (200..<300).contains(status) ? await rendered(stored, tenant: key.tenantId) : nil
            return JSONIO.raw(HTTPResponse.Status(code: status), current ?? stored, headers: headers)
        case .mismatch:
            throw APIError(
                .conflict, "idempotency_key_reused", "this Idempotency-Key was used with a different request body")
        case .held(let until):
            var error = APIError(
                .conflict, "idempotency_in_progress", "a request with this Idempotency-Key is still running")
            let remaining = until.map { $0.timeIntervalSince(service.now()) } ?? lease
            error.retryAfter = Int(min(max(1, remaining.rounded(.up)), lease.rounded(.up)))
            throw error
        case .proceed:
            break
        case .resume(let resourceId):
            takeover = IdempotencyTakeover(resourceId: resourceId)
            context.logger.notice(
                "idempotency key taken over",
                metadata: ["tenant.id": "\(key.tenantId)", "resource.id": "\(resourceId ?? "none")"])
        }
        let response: Encoded
        do {
            if let answer = try await resumedAnswer(resume, takeover: takeover, tenant: key.tenantId, context) {
                response = answer
            } else {
                response = try await IdempotencyLink.$record.withValue(claim.link) { try await body(key, data) }
            }
        } catch let error as APIError where error.status.code < 500 {
            try await finish(claim, error)
            throw error
        } catch let error as CoreError where error.status < 500 {
            try await finish(claim, APIError(error))
            throw error
        } catch {
            try? await store.releaseIdempotent(tenant: key.tenantId, key: scopedKey, owner: claim.owner)
            throw error
        }
        try await store.finishIdempotent(
            tenant: key.tenantId, key: scopedKey, owner: claim.owner, status: Int(response.status.code),
            body: response.data)
        return JSONIO.raw(response.status, response.data)
    }

    /// The key an `Idempotency-Key` is stored under (the store adds the tenant): the method and the route
    /// template with its parameters filled in, decoded and re-encoded canonically, e.g.
    /// `POST /v1/payments/pay_1/refunds <key>`. The request's own spelling of the path plays no part.
    static func scopedKey(method: HTTPRequest.Method, route: String?, parameters: Parameters, key: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let components = (route ?? "").split(separator: "/", omittingEmptySubsequences: true).map { component in
            guard component.hasPrefix("{"), component.hasSuffix("}"), component.count > 2 else {
                return String(component)
            }
            let raw = parameters.get(String(component.dropFirst().dropLast())) ?? ""
            let value = raw.removingPercentEncoding ?? raw
            return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
        }
        return "\(method.rawValue) /\(components.joined(separator: "/")) \(key)"
    }

    /// The hash that decides whether two requests with one key are "the same": over the JSON in a canonical
    /// form (sorted keys, no insignificant white space), so key order does not matter; raw bytes otherwise
    /// (also for bodies ``StrictJSON`` refuses, which are never decoded here).
    static func requestHash(_ data: Data) -> String {
        let canonical: Data
        if (try? StrictJSON.scan(data)) != nil, let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            canonical = (try? encoder.encode(value)) ?? data
        } else {
            canonical = data
        }
        return Hex.encode(SHA2.sha256([UInt8](canonical)))
    }

    /// A stored success response rendered again from the current record, when it is a payment or a payment
    /// method; nil to replay the stored body as it is (also when the record cannot be read).
    private func rendered(_ stored: Data, tenant: UUID) async -> Data? {
        struct Stored: Decodable {
            var object: String?
            var id: String?
            var customer: String?
        }
        guard let resource = try? JSONDecoder().decode(Stored.self, from: stored), let id = resource.id else {
            return nil
        }
        switch resource.object {
        case "payment":
            guard let record = try? await store.record(tenant: tenant, paymentId: id) else { return nil }
            return try? JSONIO.encoder.encode(PaymentResource(record, now: service.now()))
        case "payment_method":
            guard let customer = resource.customer,
                let method = try? await service.paymentMethod(tenant: tenant, customerId: customer, id: id)
            else { return nil }
            return try? JSONIO.encoder.encode(PaymentMethodResource(method, now: service.now()))
        default:
            return nil
        }
    }

    private func finish(_ claim: IdempotencyClaimant, _ error: APIError) async throws {
        let data = try JSONIO.encoder.encode(APIError.Envelope(error: .init(code: error.code, message: error.message)))
        try await store.finishIdempotent(
            tenant: claim.tenant, key: claim.key, owner: claim.owner, status: Int(error.status.code), body: data)
    }
}
