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
/// What happens to the key is decided by its ``IdempotencyMachine`` (in Core) and written by its
/// ``IdempotencyKeeper``; the gate only carries the machine's actions to HTTP: a replay rendered again from
/// the current record, a refusal as a 409 (with `Retry-After`), the route run. It reads the body once
/// (within the body limit, as a ``JSONBody``) and hands it to the route with the request's
/// ``IdempotencyScope``; the route passes the scope to the Core operation that honours it and answers an
/// ``IdempotentReply``: the response, rendered once, and the domain outcome stored for the key (the
/// resource's kind and id, or the error). A payment create (``create(_:_:decode:created:)``) claims its key
/// in its first transaction and answers it in its last one, inside
/// ``PaymentService/create(tenant:_:idempotency:)``.
struct IdempotencyGate: Sendable {
    let claims: any IdempotencyRepository
    let payments: any PaymentRepository
    let service: PaymentService
    let bodyLimit: Int
    /// The claims of requests that ended while the database could not be reached, released once it answers.
    let releases: PendingKeyReleases
    /// This server's incarnation, which names every owner it claims keys for; nil: owners are random ids.
    let instance: ServerInstance?

    /// What carries out the key's writes.
    var keeper: IdempotencyKeeper { IdempotencyKeeper(claims: claims, releases: releases, clock: service.now) }

    /// Runs `route` with the request's body under its `Idempotency-Key`, if it has one; a request that takes
    /// the key over answers as `resume` says instead. The route says in its `ProviderContact` whether its
    /// provider may have acted before it failed (the domain's operations report it). `limit` replaces the
    /// body limit for a route that takes larger bodies (evidence documents). `tenant` names the tenant of an
    /// operator's request (the admin routes name it in the path); a merchant's is its API key's.
    func run(
        _ request: Request, _ context: AppContext, resume: IdempotentResume, limit: Int? = nil, tenant: UUID? = nil,
        _ route: (JSONBody, IdempotencyScope?, inout ProviderContact) async throws -> IdempotentReply
    ) async throws -> Response {
        let tenant = try tenant ?? context.tenant
        let body = try await JSONIO.body(request, context, limit: limit ?? bodyLimit)
        guard let scope = try scope(request, context, tenant: tenant, body: body) else {
            var contact = ProviderContact.none
            return try await route(body, nil, &contact).response.response
        }
        var key = IdempotencyMachine(lease: scope.lease)
        let next = try await keeper.claim(scope, &key)
        return try await carry(next, &key, scope, context, resume: resume) { contact in
            try await route(body, scope, &contact)
        }
    }

    /// A payment create: the body decoded by `decode`, the created payment rendered by `created`. Under a
    /// key, the create claims it in its own first transaction and answers it in its last one (see
    /// ``PaymentService/create(tenant:_:idempotency:)``); what its key awaits after it is carried out here
    /// like any other request's.
    func create(
        _ request: Request, _ context: AppContext, decode: (JSONBody) throws -> NewPayment,
        created: (PaymentRecord) throws -> Encoded
    ) async throws -> Response {
        let tenant = try context.tenant
        let body = try await JSONIO.body(request, context, limit: bodyLimit)
        guard let scope = try scope(request, context, tenant: tenant, body: body) else {
            return try created(try await service.create(tenant: tenant, try decode(body))).response
        }
        var run: IdempotentRun<PaymentRecord>
        do {
            run = await service.create(tenant: tenant, try decode(body), idempotency: scope)
        } catch {
            var key = IdempotencyMachine(lease: scope.lease)
            let next = key.apply(.failed(IdempotentFailure(Self.domainError(error))))
            run = IdempotentRun(key: key, next: next, result: .failure(error))
        }
        let ran = run.result.flatMap { record in
            Result { IdempotentReply(.createdPayment(record.payment.id), try created(record)) }
        }
        return try await carry(run.next, &run.key, scope, context, resume: .createdPayment, ran: ran) { _ in
            // A create is never run again after its claim turned it away (a claim that lets it run does not).
            throw APIError(.internalError, "the request could not be completed")
        }
    }

    /// Carries the key from `next` to the request's answer: a replay, a refusal, the work run (resuming as
    /// `resume` says, or afresh by `fresh`) with its outcome stored, or the answer of work that already ran
    /// (`ran`) once the key's write it awaits is done.
    private func carry(
        _ next: IdempotencyMachine.Action, _ key: inout IdempotencyMachine, _ scope: IdempotencyScope,
        _ context: AppContext, resume: IdempotentResume, ran: Result<IdempotentReply, any Error>? = nil,
        fresh: (inout ProviderContact) async throws -> IdempotentReply
    ) async throws -> Response {
        switch next {
        case .claim:
            let claimed = try await keeper.claim(scope, &key)
            return try await carry(claimed, &key, scope, context, resume: resume, ran: ran, fresh: fresh)
        case .replay(let outcome):
            var headers = HTTPFields()
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            return try await replayed(outcome, tenant: scope.tenant, headers: headers, requestID: context.requestID)
        case .refuse(let error, let retryAfter):
            var refusal = APIError(error)
            refusal.retryAfter = retryAfter
            throw refusal
        case .run(let takeover):
            if let takeover { Self.logTakeover(takeover.resourceId, tenant: scope.tenant, context) }
            var contact = ProviderContact.none
            let reply: IdempotentReply
            do {
                if let answer = try await resumedAnswer(resume, takeover: takeover, tenant: scope.tenant, context) {
                    reply = answer
                } else {
                    reply = try await fresh(&contact)
                }
            } catch {
                let failure = IdempotentFailure(Self.domainError(error), contact: contact)
                try await keeper.settle(key.apply(.failed(failure)), scope, &key)
                throw error
            }
            try await keeper.settle(key.apply(.finished(reply.outcome)), scope, &key)
            return reply.response.response
        case .answer, .release, .none:
            try await keeper.settle(next, scope, &key)
            guard let ran else { throw APIError(.internalError, "the request could not be completed") }
            return try ran.get().response.response
        }
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

    /// A dispute answered (`200`), as of `now`.
    static func dispute(_ dispute: Dispute, now: Date) throws -> IdempotentReply {
        IdempotentReply(
            .resource(IdempotentResource(kind: .dispute, id: dispute.id, created: false)),
            try Encoded(.ok, DisputeSnapshot(dispute, now: now)))
    }

    /// A created payment method (`201`), as of `now`.
    static func paymentMethod(_ method: StoredPaymentMethod, now: Date) throws -> IdempotentReply {
        IdempotentReply(
            .resource(
                IdempotentResource(kind: .paymentMethod, id: method.id, parent: method.customerId, created: true)),
            try Encoded(.created, PaymentMethodResource(method, now: now)))
    }
}
