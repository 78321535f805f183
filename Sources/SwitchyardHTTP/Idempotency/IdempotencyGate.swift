import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore

/// Runs the mutating merchant routes under the `Idempotency-Key` rules: the same key and body replay the
/// first answer; the same key with another body is a 409; a key still running is a 409 with `Retry-After`.
/// A running request holds its key for the policy's lease (`idempotency.lease_ms`); after it, the same key
/// and body take the key over and resume as ``IdempotentResume`` says, so a request that died never blocks
/// its key for ever and is never done twice. A request without the header simply runs.
///
/// A key is scoped by tenant, mode (test or live), method and the route that matched with its parameters (see
/// ``scopedKey(method:route:parameters:key:)``), so every spelling of a path (`/v1/payments/`,
/// `//v1/payments`) shares one key.
///
/// The gate reads the body once (within the body limit, as a ``JSONBody``) and hands it to the route with the request's
/// ``IdempotencyScope``; the route passes the scope to the Core operation that honours it and answers an
/// ``IdempotentReply``: the response, rendered once, and the domain outcome stored for the key (the
/// resource's kind and id, or the error's code). A replay renders the stored outcome again from the
/// current record. A payment create (``create(_:_:decode:created:)``) claims its key in its first
/// transaction and answers it in its last one, inside ``PaymentService/create(tenant:_:idempotency:)``.
struct IdempotencyGate: Sendable {
    let claims: any IdempotencyRepository
    let payments: any PaymentRepository
    let service: PaymentService
    let bodyLimit: Int
    /// The claims of requests that ended while the database could not be reached, released once it answers.
    let releases: PendingKeyReleases
    /// This server's incarnation, which names every owner it claims keys for; nil: owners are random ids.
    let instance: ServerInstance?

    /// Runs `route` with the request's body under its `Idempotency-Key`, if it has one; a request that takes
    /// the key over answers as `resume` says instead.
    func run(
        _ request: Request, _ context: AppContext, resume: IdempotentResume,
        _ route: (JSONBody, IdempotencyScope?) async throws -> IdempotentReply
    ) async throws -> Response {
        let tenant = try context.tenant
        let body = try await JSONIO.body(request, context, limit: bodyLimit)
        guard let scope = try scope(request, context, tenant: tenant, body: body) else {
            return try await route(body, nil).response.response
        }
        let claimed = try await claim(scope)
        return try await answered(claimed, scope, context, resume: resume) { try await route(body, scope) }
    }

    /// A payment create: the body decoded by `decode`, the created payment rendered by `created`. Under a
    /// key, the create claims it in its own first transaction and answers it in its last one; a claim that
    /// does not let it create (a replay, another body, a key still held, a payment created by an earlier
    /// owner) is answered as a claim of the gate's own would be, and an error before anything was stored is
    /// stored for the key like any other answer.
    func create(
        _ request: Request, _ context: AppContext, decode: (JSONBody) throws -> NewPayment,
        created: (PaymentRecord) throws -> Encoded
    ) async throws -> Response {
        let tenant = try context.tenant
        let body = try await JSONIO.body(request, context, limit: bodyLimit)
        guard let scope = try scope(request, context, tenant: tenant, body: body) else {
            return try created(try await service.create(tenant: tenant, try decode(body))).response
        }
        let creation: IdempotentCreation
        do {
            creation = await service.create(tenant: tenant, try decode(body), idempotency: scope)
        } catch {
            creation = .unclaimed(error)
        }
        switch creation {
        case .interrupted(let claimed):
            return try await answered(claimed, scope, context, resume: .createdPayment, fresh: Self.noFreshCreate)
        case .unclaimed(let error):
            // Nothing was stored, unless the database went away during the claim's COMMIT: then the claim
            // is released once it answers again. Else the key is claimed now, to store the error or answer
            // as it says.
            guard Self.storable(error) != nil else {
                if error.isStorageUnavailable { await release(scope) }
                throw error
            }
            let claimed = try await claim(scope)
            guard claimed == .proceed || claimed == .resume(resourceId: nil) else {
                return try await answered(claimed, scope, context, resume: .createdPayment, fresh: Self.noFreshCreate)
            }
            try await failed(scope, error)
            throw error
        case .claimed(let claimed, let result):
            if claimed != .proceed { Self.logTakeover(claimed, tenant: tenant, context) }
            do {
                let record = try result.get()
                return try await stored(
                    IdempotentReply(.createdPayment(record.payment.id), try created(record)), scope)
            } catch {
                try await failed(scope, error)
                throw error
            }
        case .answered(let result):
            return try created(try result.get()).response
        }
    }

    /// A create is never run again after its claim interrupted it (a claim that lets it run does not).
    private static func noFreshCreate() throws -> IdempotentReply {
        throw APIError(.internalError, "the request could not be completed")
    }

    /// Stores `reply`'s outcome for the key and answers its response; the key is released when its outcome
    /// could not be stored (the next retry resumes from what the request did).
    private func stored(_ reply: IdempotentReply, _ scope: IdempotencyScope) async throws -> Response {
        try await releasingOnFailure(scope, ran: true) {
            try await claims.finishIdempotent(
                tenant: scope.tenant, key: scope.key, owner: scope.owner, outcome: reply.outcome)
        }
        return reply.response.response
    }

    /// The answer to a claim: a replay, a 409, what a takeover resumes, or else what `fresh` answers (the
    /// request run afresh); its outcome stored for the key unless replayed.
    private func answered(
        _ claimed: IdempotencyClaim, _ scope: IdempotencyScope, _ context: AppContext, resume: IdempotentResume,
        fresh: () async throws -> IdempotentReply
    ) async throws -> Response {
        let takeover: IdempotencyTakeover?
        switch try await proceeding(claimed, tenant: scope.tenant, context) {
        case .respond(let response): return response
        case .run(let resumed): takeover = resumed
        }
        let reply: IdempotentReply
        do {
            if let answer = try await resumedAnswer(resume, takeover: takeover, tenant: scope.tenant, context) {
                reply = answer
            } else {
                reply = try await fresh()
            }
        } catch {
            try await failed(scope, error)
            throw error
        }
        return try await stored(reply, scope)
    }

    /// The request's ``IdempotencyScope``: nil without an `Idempotency-Key`; a 400 for a malformed one.
    private func scope(_ request: Request, _ context: AppContext, tenant: UUID, body: JSONBody) throws
        -> IdempotencyScope?
    {
        guard let idempotencyKey = request.headers[HTTPField.Name("Idempotency-Key")!] else { return nil }
        guard !idempotencyKey.isEmpty, idempotencyKey.utf8.count <= 255,
            idempotencyKey.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else {
            throw APIError(
                .invalidIdempotencyKey,
                "Idempotency-Key must be 1 to 255 printable ASCII characters")
        }
        // A live key's keys are apart from the test keys' (which keep the form they always had), so the same
        // key sent in both modes never answers one mode with the other's object.
        let mode = (try? context.apiKey.livemode) == true ? IdempotentResource.liveKeyPrefix : ""
        return IdempotencyScope(
            tenant: tenant,
            key: mode
                + Self.scopedKey(
                    method: request.method, route: context.endpointPath, parameters: context.parameters,
                    key: idempotencyKey),
            requestHash: body.requestHash, owner: instance?.newOwner() ?? UUID().uuidString.lowercased(),
            lease: service.policy.platform.idempotency.lease)
    }
}

/// What a route under the ``IdempotencyGate`` answers: its response, rendered once, and the outcome
/// stored for its `Idempotency-Key`.
struct IdempotentReply: Sendable {
    var outcome: IdempotentOutcome
    var response: Encoded

    init(_ outcome: IdempotentOutcome, _ response: Encoded) {
        self.outcome = outcome
        self.response = response
    }

    /// A payment acted on (`200`), as of `now`.
    static func payment(_ record: PaymentRecord, now: Date) throws -> IdempotentReply {
        IdempotentReply(
            .resource(IdempotentResource(kind: .payment, id: record.payment.id, created: false)),
            try Encoded(.ok, PaymentResource(record, now: now)))
    }

    /// A created refund (`201`).
    static func refund(_ refund: Refund) throws -> IdempotentReply {
        IdempotentReply(
            .resource(IdempotentResource(kind: .refund, id: refund.id, created: true)),
            try Encoded(.created, RefundResource(refund)))
    }

    /// A created payment method (`201`), as of `now`.
    static func paymentMethod(_ method: StoredPaymentMethod, now: Date) throws -> IdempotentReply {
        IdempotentReply(
            .resource(
                IdempotentResource(kind: .paymentMethod, id: method.id, parent: method.customerId, created: true)),
            try Encoded(.created, PaymentMethodResource(method, now: now)))
    }
}
