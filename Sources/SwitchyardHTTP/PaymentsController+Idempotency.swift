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
    ///
    /// With `claimsInCreate` (a payment create), the key is claimed in the create's first transaction and
    /// answered in its last one (see ``IdempotentCreate``) rather than in transactions of its own.
    func idempotent(
        _ request: Request, _ context: AppContext, resume: IdempotentResume = .fresh, claimsInCreate: Bool = false,
        _ body: @escaping (APIKey, Data) async throws -> Encoded
    ) async throws -> Response {
        let key = try context.apiKey
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
        let requestHash = Self.requestHash(data)
        if claimsInCreate {
            return try await claimingInCreate(claim, requestHash: requestHash, key, data, context, resume, body)
        }
        let claimed = try await store.claimIdempotent(
            tenant: key.tenantId, key: scopedKey, requestHash: requestHash, owner: claim.owner,
            lease: service.policy.platform.idempotency.lease)
        return try await answered(claimed, claim, context, resume) {
            try await IdempotencyLink.$recorder.withValue(IdempotencyLink.Recorder(claim.link)) { try await body(key, data) }
        }
    }

    /// A create that claims its key in its own first transaction and answers it in its last one. A claim
    /// that does not let it create (a replay, another body, a key still held, a payment created by an
    /// earlier owner) is answered as a claim of its own would be; an error before anything was stored is
    /// stored for the key like any other answer.
    private func claimingInCreate(
        _ claim: IdempotencyClaimant, requestHash: String, _ key: APIKey, _ data: Data, _ context: AppContext,
        _ resume: IdempotentResume, _ body: @escaping (APIKey, Data) async throws -> Encoded
    ) async throws -> Response {
        let lease = service.policy.platform.idempotency.lease
        let create = IdempotentCreate(
            tenant: key.tenantId, key: claim.key, requestHash: requestHash, owner: claim.owner, lease: lease,
            respond: { [self] in try createdResponse($0) })
        let response: Encoded
        do {
            response = try await IdempotentCreate.$current.withValue(create) { try await body(key, data) }
        } catch let interruption as IdempotencyInterruption {
            return try await answered(interruption.claim, claim, context, resume, fresh: Self.noFreshCreate)
        } catch {
            switch create.stage {
            case .answered: break
            case .claimed: try await failed(claim, error)
            case .unclaimed:
                // Nothing was stored: the key is claimed now, to store the error or answer as it says.
                guard Self.storable(error) != nil else { break }
                let claimed = try await store.claimIdempotent(
                    tenant: key.tenantId, key: claim.key, requestHash: requestHash, owner: claim.owner, lease: lease)
                guard claimed == .proceed || claimed == .resume(resourceId: nil) else {
                    return try await answered(claimed, claim, context, resume, fresh: Self.noFreshCreate)
                }
                try await failed(claim, error)
            }
            throw error
        }
        guard case .claimed(let claimed) = create.stage else { return JSONIO.raw(response.status, response.data) }
        if claimed != .proceed { Self.logTakeover(claimed, tenant: key.tenantId, context) }
        return try await stored(response, claim)
    }

    /// A create is never run again after its claim interrupted it (a claim that lets it run does not).
    private static func noFreshCreate() throws -> Encoded {
        throw APIError(.internalServerError, "internal_error", "the request could not be completed")
    }

    /// Stores `response` for the key and answers it.
    private func stored(_ response: Encoded, _ claim: IdempotencyClaimant) async throws -> Response {
        try await store.finishIdempotent(
            tenant: claim.tenant, key: claim.key, owner: claim.owner, status: Int(response.status.code),
            body: response.data)
        return JSONIO.raw(response.status, response.data)
    }

    /// The answer to a claim: a replay, a 409, what a takeover resumes, or else what `fresh` answers (the
    /// request run afresh); stored for the key unless replayed.
    private func answered(
        _ claimed: IdempotencyClaim, _ claim: IdempotencyClaimant, _ context: AppContext, _ resume: IdempotentResume,
        fresh: () async throws -> Encoded
    ) async throws -> Response {
        let takeover: IdempotencyTakeover?
        switch try await proceeding(claimed, tenant: claim.tenant, context) {
        case .respond(let response): return response
        case .run(let resumed): takeover = resumed
        }
        let response: Encoded
        do {
            if let answer = try await resumedAnswer(resume, takeover: takeover, tenant: claim.tenant, context) {
                response = answer
            } else {
                response = try await fresh()
            }
        } catch {
            try await failed(claim, error)
            throw error
        }
        return try await stored(response, claim)
    }

    /// What a claim lets the request do: answer a replay, or run (resuming a takeover); throws the 409 of
    /// a claim that lets it do neither.
    private func proceeding(_ claimed: IdempotencyClaim, tenant: UUID, _ context: AppContext) async throws
        -> ClaimVerdict
    {
        let lease = service.policy.platform.idempotency.lease
        switch claimed {
        case .replay(let status, let stored):
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            let current = (200..<300).contains(status) ? await rendered(stored, tenant: tenant) : nil
            return .respond(JSONIO.raw(HTTPResponse.Status(code: status), current ?? stored, headers: headers))
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
            return .run(nil)
        case .resume(let resourceId):
            Self.logTakeover(claimed, tenant: tenant, context)
            return .run(IdempotencyTakeover(resourceId: resourceId))
        }
    }

    private static func logTakeover(_ claimed: IdempotencyClaim, tenant: UUID, _ context: AppContext) {
        guard case .resume(let resourceId) = claimed else { return }
        context.logger.notice(
            "idempotency key taken over",
            metadata: ["tenant.id": "\(tenant)", "resource.id": "\(resourceId ?? "none")"])
    }

    /// Ends a claim after `error`: a 4xx is stored as the key's response, anything else releases the key.
    private func failed(_ claim: IdempotencyClaimant, _ error: any Error) async throws {
        if let api = Self.storable(error) {
            try await finish(claim, api)
        } else {
            try? await store.releaseIdempotent(tenant: claim.tenant, key: claim.key, owner: claim.owner)
        }
    }

    /// The 4xx an error answers, which is stored for its key; nil for anything else.
    static func storable(_ error: any Error) -> APIError? {
        if let error = error as? APIError, error.status.code < 500 { return error }
        if let error = error as? CoreError, error.status < 500 { return APIError(error) }
        return nil
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
        let data = try Self.envelope(error)
        try await store.finishIdempotent(
            tenant: claim.tenant, key: claim.key, owner: claim.owner, status: Int(error.status.code), body: data)
    }
}

extension PaymentsController {
    /// An error's body as stored for an `Idempotency-Key`.
    static func envelope(_ error: APIError) throws -> Data {
        try JSONIO.encoder.encode(APIError.Envelope(error: .init(code: error.code, message: error.message)))
    }
}

/// What a claim on an `Idempotency-Key` lets a request do.
enum ClaimVerdict {
    /// Answer this (a stored response replayed).
    case respond(Response)
    /// Run, resuming what a takeover names (nil for a new key).
    case run(IdempotencyTakeover?)
}
