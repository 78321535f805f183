import Foundation
import HTTPTypes
import Hummingbird
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto

extension IdempotencyMiddleware {
    /// What a claim lets the request do: answer a replay, or run (resuming a takeover); throws the 409 of
    /// a claim that lets it do neither.
    func proceeding(_ claimed: IdempotencyClaim, tenant: UUID, _ context: AppContext) async throws
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
                .idempotencyKeyReused, "this Idempotency-Key was used with a different request body")
        case .held(let until):
            var error = APIError(
                .idempotencyInProgress, "a request with this Idempotency-Key is still running")
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

    static func logTakeover(_ claimed: IdempotencyClaim, tenant: UUID, _ context: AppContext) {
        guard case .resume(let resourceId) = claimed else { return }
        context.logger.notice(
            "idempotency key taken over",
            metadata: ["tenant.id": "\(tenant)", "resource.id": "\(resourceId ?? "none")"])
    }

    /// Ends a claim after `error`: a 4xx is stored as the key's response, anything else releases the key.
    func failed(_ claim: IdempotencyClaimant, _ error: any Error) async throws {
        if let api = Self.storable(error) {
            try await finish(claim, api)
        } else {
            try? await claims.releaseIdempotent(tenant: claim.tenant, key: claim.key, owner: claim.owner)
        }
    }

    /// The 4xx an error answers, which is stored for its key; nil for anything else.
    static func storable(_ error: any Error) -> APIError? {
        if let error = error as? APIError, error.status.code < 500 { return error }
        if let error = error as? CoreError, error.code.httpStatus.code < 500 { return APIError(error) }
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
            guard let record = try? await payments.record(tenant: tenant, paymentId: id) else { return nil }
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
        try await claims.finishIdempotent(
            tenant: claim.tenant, key: claim.key, owner: claim.owner, status: Int(error.status.code), body: data)
    }
}

extension IdempotencyMiddleware {
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
