import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwitchyardCore

/// Runs the requests of its route group under the `Idempotency-Key` rules: the same key and body replay
/// the stored response; the same key with another body is a 409; a key still running is a 409 with
/// `Retry-After`. A running request holds its key for the policy's lease (`idempotency.lease_ms`); after
/// it, the same key and body take the key over and resume as ``resume`` says, so a request that died never
/// blocks its key for ever and is never done twice. A request without the header simply runs.
///
/// A key is scoped by tenant, method and the route that matched with its parameters (see
/// ``scopedKey(method:route:parameters:key:)``), so every spelling of a path (`/v1/payments/`,
/// `//v1/payments`) shares one key. A replayed payment or payment method is rendered from its current
/// record, so a replay never hands out a client session that has expired since.
///
/// The middleware reads the body (within the body limit) before the route does; the route reads it again
/// from memory. The route's answer is stored for the key as its status and body. With
/// ``createdResponse`` (a payment create), the key is claimed in the create's first transaction and
/// answered in its last one (see ``IdempotentCreate``) rather than in transactions of its own.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppContext
    /// How a payment create renders what it stores for its key: the payment, or the merchant's error.
    typealias CreatedResponse = @Sendable (Result<PaymentRecord, CoreError>) throws -> (status: Int, body: Data)

    let claims: any IdempotencyRepository
    let payments: any PaymentRepository
    let service: PaymentService
    let bodyLimit: Int
    /// What a request that takes a key over answers.
    var resume: IdempotentResume = .fresh
    /// Set for a payment create, whose key is claimed inside the create.
    var createdResponse: CreatedResponse? = nil

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        let key = try context.apiKey
        let data = try await JSONIO.body(request, limit: bodyLimit)
        var request = request
        request.body = RequestBody(buffer: ByteBuffer(bytes: data))
        func run() async throws -> Encoded { try await Encoded(collecting: try await next(request, context)) }
        guard let idempotencyKey = request.headers[HTTPField.Name("Idempotency-Key")!] else {
            return try await next(request, context)
        }
        guard !idempotencyKey.isEmpty, idempotencyKey.utf8.count <= 255,
            idempotencyKey.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else {
            throw APIError(
                .invalidIdempotencyKey,
                "Idempotency-Key must be 1 to 255 printable ASCII characters")
        }
        let scopedKey = Self.scopedKey(
            method: request.method, route: context.endpointPath, parameters: context.parameters, key: idempotencyKey)
        let claim = IdempotencyClaimant(
            claims: claims, tenant: key.tenantId, key: scopedKey, owner: UUID().uuidString.lowercased())
        let requestHash = Self.requestHash(data)
        if let createdResponse {
            return try await claimingInCreate(claim, requestHash: requestHash, createdResponse, context, run)
        }
        let claimed = try await claims.claimIdempotent(
            tenant: key.tenantId, key: scopedKey, requestHash: requestHash, owner: claim.owner,
            lease: service.policy.platform.idempotency.lease)
        return try await answered(claimed, claim, context) {
            try await IdempotencyLink.$recorder.withValue(IdempotencyLink.Recorder(claim.link)) { try await run() }
        }
    }

    /// A create that claims its key in its own first transaction and answers it in its last one. A claim
    /// that does not let it create (a replay, another body, a key still held, a payment created by an
    /// earlier owner) is answered as a claim of its own would be; an error before anything was stored is
    /// stored for the key like any other answer.
    private func claimingInCreate(
        _ claim: IdempotencyClaimant, requestHash: String, _ respond: @escaping CreatedResponse,
        _ context: AppContext, _ run: () async throws -> Encoded
    ) async throws -> Response {
        let lease = service.policy.platform.idempotency.lease
        let create = IdempotentCreate(
            tenant: claim.tenant, key: claim.key, requestHash: requestHash, owner: claim.owner, lease: lease,
            respond: respond)
        let response: Encoded
        do {
            response = try await IdempotentCreate.$current.withValue(create) { try await run() }
        } catch let interruption as IdempotencyInterruption {
            return try await answered(interruption.claim, claim, context, fresh: Self.noFreshCreate)
        } catch {
            switch create.stage {
            case .answered: break
            case .claimed: try await failed(claim, error)
            case .unclaimed:
                // Nothing was stored: the key is claimed now, to store the error or answer as it says.
                guard Self.storable(error) != nil else { break }
                let claimed = try await claims.claimIdempotent(
                    tenant: claim.tenant, key: claim.key, requestHash: requestHash, owner: claim.owner, lease: lease)
                guard claimed == .proceed || claimed == .resume(resourceId: nil) else {
                    return try await answered(claimed, claim, context, fresh: Self.noFreshCreate)
                }
                try await failed(claim, error)
            }
            throw error
        }
        guard case .claimed(let claimed) = create.stage else { return JSONIO.raw(response.status, response.data) }
        if claimed != .proceed { Self.logTakeover(claimed, tenant: claim.tenant, context) }
        return try await stored(response, claim)
    }

    /// A create is never run again after its claim interrupted it (a claim that lets it run does not).
    private static func noFreshCreate() throws -> Encoded {
        throw APIError(.internalError, "the request could not be completed")
    }

    /// Stores `response` for the key and answers it.
    private func stored(_ response: Encoded, _ claim: IdempotencyClaimant) async throws -> Response {
        try await claims.finishIdempotent(
            tenant: claim.tenant, key: claim.key, owner: claim.owner, status: Int(response.status.code),
            body: response.data)
        return JSONIO.raw(response.status, response.data)
    }

    /// The answer to a claim: a replay, a 409, what a takeover resumes, or else what `fresh` answers (the
    /// request run afresh); stored for the key unless replayed.
    private func answered(
        _ claimed: IdempotencyClaim, _ claim: IdempotencyClaimant, _ context: AppContext,
        fresh: () async throws -> Encoded
    ) async throws -> Response {
        let takeover: IdempotencyTakeover?
        switch try await proceeding(claimed, tenant: claim.tenant, context) {
        case .respond(let response): return response
        case .run(let resumed): takeover = resumed
        }
        let response: Encoded
        do {
            if let answer = try await resumedAnswer(takeover: takeover, tenant: claim.tenant, context) {
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
}

extension Encoded {
    /// The status and body `response` carries (a route's JSON answer, read into memory).
    init(collecting response: Response) async throws {
        let sink = BodySink()
        try await response.body.write(CollectingWriter(sink: sink))
        self.status = response.status
        self.data = Data(sink.buffer.readableBytesView)
    }
}

/// Where ``CollectingWriter`` puts what it is given.
private final class BodySink: @unchecked Sendable {
    var buffer = ByteBuffer()
}

/// A response body writer that keeps the body in memory.
private struct CollectingWriter: ResponseBodyWriter {
    let sink: BodySink

    mutating func write(_ buffer: ByteBuffer) async throws {
        sink.buffer.writeImmutableBuffer(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension IdempotencyMiddleware {
    /// This middleware for routes whose takeovers answer as `resume` says.
    func resuming(_ resume: IdempotentResume) -> Self {
        var copy = self
        copy.resume = resume
        return copy
    }

    /// This middleware for the payment create, which claims its key inside its first transaction and
    /// stores what `respond` renders in its last one.
    func creating(_ respond: @escaping CreatedResponse) -> Self {
        var copy = resuming(.createdPayment)
        copy.createdResponse = respond
        return copy
    }
}
