import Foundation
import HTTPTypes
import Hummingbird
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto

extension IdempotencyGate {
    /// What a claim lets the request do: answer a replay, or run (resuming a takeover); throws the 409 of
    /// a claim that lets it do neither.
    func proceeding(_ claimed: IdempotencyClaim, tenant: UUID, _ context: AppContext) async throws
        -> ClaimVerdict
    {
        let lease = service.policy.platform.idempotency.lease
        switch claimed {
        case .replay(let outcome):
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            return .respond(
                try await replayed(outcome, tenant: tenant, headers: headers, requestID: context.requestID))
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

    /// Ends a claim after `error`: a 4xx is stored as the key's outcome, anything else releases the key.
    func failed(_ scope: IdempotencyScope, _ error: any Error) async throws {
        if let api = Self.storable(error) {
            try await releasingOnFailure(scope) {
                try await claims.finishIdempotent(
                    tenant: scope.tenant, key: scope.key, owner: scope.owner,
                    outcome: .failure(api.coreError, status: Int(api.status.code)))
            }
        } else {
            // A route that lost the database may have had its effect (a lost COMMIT after the provider call).
            await release(scope, ran: error.isStorageUnavailable)
        }
    }

    /// Claims the request's key; when the claim fails, what it may have stored unseen (a COMMIT that landed
    /// while its connection dropped) is released.
    func claim(_ scope: IdempotencyScope) async throws -> IdempotencyClaim {
        try await releasingOnFailure(scope) {
            try await claims.claimIdempotent(
                tenant: scope.tenant, key: scope.key, requestHash: scope.requestHash, owner: scope.owner,
                lease: scope.lease)
        }
    }

    /// Runs `step`, a write on the request's key; when it fails, the request's claim is released before the
    /// failure goes on, so the key is not held for the rest of its lease by a request that has ended. `ran`
    /// says the request's operation ran (`step` stores its answer); see ``release(_:ran:)``.
    @discardableResult
    func releasingOnFailure<T>(_ scope: IdempotencyScope, ran: Bool = false, _ step: () async throws -> T)
        async throws -> T
    {
        do {
            return try await step()
        } catch {
            await release(scope, ran: ran)
            throw error
        }
    }

    /// Releases the request's claim now, or once the database answers again (see ``PendingKeyReleases``).
    ///
    /// An operation on a payment (capture, complete, cancel, session renewal) that ran, or may have, before
    /// its answer was lost (`ran`) keeps its key, with its lease ended and the payment linked to it: the retry
    /// takes the key over and answers the payment as it is now, as after a lease, and never repeats an
    /// operation the provider may have carried out. Any other claim is released as
    /// ``IdempotencyRepository/releaseIdempotent(tenant:key:owner:)`` says.
    func release(_ scope: IdempotencyScope, ran: Bool = false) async {
        let kept = ran ? IdempotentResource.settled(key: scope.key, resourceId: nil) : nil
        await releases.release(
            .init(tenant: scope.tenant, key: scope.key, owner: scope.owner, linking: kept.map(\.id)))
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

    /// The replay of a stored outcome: the resource rendered from its current record, or the error (quoting
    /// the replaying request's id); a response stored by an earlier version as it was (a payment or payment
    /// method rendered again).
    private func replayed(_ outcome: IdempotentOutcome, tenant: UUID, headers: HTTPFields, requestID: String?)
        async throws -> Response
    {
        switch outcome {
        case .resource(let resource):
            let encoded = try await rendered(resource, tenant: tenant)
            return JSONIO.raw(encoded.status, encoded.data, headers: headers)
        case .failure(let stored, let status):
            let error = APIError(stored)
            let answered = status.map { HTTPResponse.Status(code: $0) } ?? error.status
            return JSONIO.raw(answered, try Self.envelope(error, requestID: requestID), headers: headers)
        case .stored(let status, let body):
            let current = (200..<300).contains(status) ? await rendered(stored: body, tenant: tenant) : nil
            return JSONIO.raw(HTTPResponse.Status(code: status), current ?? body, headers: headers)
        }
    }

    /// A resource as it is now, with the status it was first answered with.
    private func rendered(_ resource: IdempotentResource, tenant: UUID) async throws -> Encoded {
        let status: HTTPResponse.Status = resource.created ? .created : .ok
        switch resource.kind {
        case .payment:
            return try Encoded(
                status,
                PaymentResource(try await service.get(tenant: tenant, paymentId: resource.id), now: service.now()))
        case .refund:
            guard let refund = try await payments.refund(id: resource.id), refund.tenantId == tenant else {
                throw CoreError.notFound("refund")
            }
            return try Encoded(status, RefundResource(refund))
        case .paymentMethod:
            let method = try await service.paymentMethod(
                tenant: tenant, customerId: resource.parent ?? "", id: resource.id)
            return try Encoded(status, PaymentMethodResource(method, now: service.now()))
        }
    }

    /// A success response stored by an earlier version rendered again from the current record, when it is
    /// a payment or a payment method; nil to replay the stored body as it is (also when the record cannot
    /// be read).
    private func rendered(stored: Data, tenant: UUID) async -> Data? {
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
}

extension IdempotencyGate {
    /// An error's body, as a replay of it answers.
    static func envelope(_ error: APIError, requestID: String?) throws -> Data {
        try JSONIO.encoder.encode(error.envelope(requestID: requestID))
    }
}

/// What a claim on an `Idempotency-Key` lets a request do.
enum ClaimVerdict {
    /// Answer this (a stored outcome replayed).
    case respond(Response)
    /// Run, resuming what a takeover names (nil for a new key).
    case run(IdempotencyTakeover?)
}
