#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Citcon UPI provider: pending charges for Citcon's mobile SDK, captures, cancels, refunds,
/// inquiries, access tokens and signed IPNs.
///
/// Every call goes through the host's HTTP service; the plugin keeps no state across calls.
public struct CitconProvider: Provider {
    let host: any HostServices

    /// Creates the provider over the host's services.
    public init(host: any HostServices) {
        self.host = host
    }

    /// `POST /v1/access-tokens` with the private key as the bearer; `kind` is `server` or `client`.
    public func accessToken(_ request: AccessTokenRequest, account: AccountContext) async throws -> AccessTokenResult {
        guard request.kind == "server" || request.kind == "client" else {
            throw ProviderError(code: "bad_request", message: "token kind must be server or client")
        }
        let privateKey = try account.credentials.require(Credential.privateKey)
        let body = try ProviderJSON.standard.encode(CitconMapping.accessTokenRequest(kind: request.kind))
        let exchange = await exchange(
            .accessToken, method: "POST", path: "/v1/access-tokens", bearer: privateKey, body: body,
            account: account, as: CitconAccessTokenData.self
        )
        switch exchange {
        case .outcome(let failure):
            return AccessTokenResult(failure: failure)
        case .success(let data):
            return AccessTokenResult(token: CitconMapping.accessToken(from: data, now: host.now()))
        }
    }

    /// `POST /v1/charges`: a pending charge for the mobile SDK, then a client token for the app.
    ///
    /// Without a server token the result is `authExpired`, so the host fetches one and retries. A pending
    /// charge is handed out only with a client token: the token call is retried (see
    /// ``clientToken(account:)``), and when it still fails the charge is cancelled at Citcon and the attempt
    /// is declined (`client_token_unavailable`), never a next action the app cannot use.
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        guard let token = account.accessTokenSecret else { return .authExpired }
        let body = try ProviderJSON.standard.encode(CitconMapping.chargeRequest(request, account: account))
        let exchange = await exchange(
            .authorize, method: "POST", path: "/v1/charges", bearer: token, body: body,
            account: account, as: CitconChargeData.self
        )
        let charge: CitconChargeData
        switch exchange {
        case .outcome(let outcome): return outcome
        case .success(let data): charge = data
        }
        guard CitconMapping.outcomeKind(forStatus: charge.status ?? "initiated") == .pending,
            charge.chargeToken?.isEmpty == false
        else {
            return CitconMapping.chargeOutcome(charge, clientToken: nil, environment: account.environment)
        }
        // The charge exists from here on: it is handed out complete, or cancelled and reported failed.
        guard let client = await clientToken(account: account) else {
            return await abandon(charge, reference: request.attemptId, token: token, account: account)
        }
        return CitconMapping.chargeOutcome(charge, clientToken: client, environment: account.environment)
    }

    /// `GET /v1/transactions/{id}` by Citcon's id, or by our reference when the id is not known.
    ///
    /// A lookup by our reference that finds nothing is judged by ``NotFoundRule`` (account option
    /// `not_found_delay_seconds`, default ``CitconMapping/notFoundDelay``): `notSent` once the delay since the
    /// attempt's start has passed, else `unknown`. A charge still waiting for the app (`initiated`) comes back with a
    /// fresh client token, so the app gets a usable session (see ``reissuedSession(_:account:)``).
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        guard let token = account.accessTokenSecret else { return .authExpired }
        let knownId = request.payment.knownProviderPaymentId
        let exchange = await exchange(
            .sync, method: "GET",
            path: "/v1/transactions/" + ProviderURL.pathSegment(knownId ?? request.payment.attemptId),
            bearer: token, body: nil, account: account, as: CitconTransactionData.self
        )
        switch exchange {
        case .outcome(let outcome):
            guard knownId == nil, outcome == CitconMapping.notFound else { return outcome }
            return NotFoundRule(options: account.options, defaultDelay: CitconMapping.notFoundDelay)
                .outcome(provider: "Citcon", attemptStartedAt: request.attemptStartedAt, now: host.now())
        case .success(let transaction):
            let outcome = CitconMapping.transactionOutcome(transaction)
            guard CitconMapping.isAwaitingTheApp(transaction.status) else { return outcome }
            return await reissuedSession(transaction, account: account)
        }
    }

    // MARK: Plumbing

    /// Sends one Citcon request with `bearer` through the host and classifies the answer.
    func exchange<Payload: Decodable & Sendable>(
        _ call: CitconCall, method: String, path: String, bearer: Secret, body: Data?,
        account: AccountContext, as type: Payload.Type
    ) async -> ExchangeResult<Payload> {
        let request = OutboundRequest(
            method: method, url: ProviderURL.join(base: account.baseURL, path: path),
            headers: [.jsonContent, .bearer(bearer)], body: body, redactHeaders: ["Authorization"])
        return await ProviderExchange(host: host, logName: "citcon").send(
            request, call: call.rawValue, account: account
        ) {
            CitconMapping.classify($0, call: call, as: type, secrets: account.secretValues)
        }
    }
}
