#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The __Name__ provider: payments (`authorize`), their state (`sync`), refunds and signed notifications.
///
/// Every call goes through the host's HTTP service; the plugin keeps no state across calls. The flows are
/// thin: ``__Name__Mapping`` builds the requests and reads the answers, ``__Name__Signing`` checks
/// notifications.
public struct __Name__Provider: Provider {
    let host: any HostServices

    /// Creates the provider over the host's services.
    public init(host: any HostServices) {
        self.host = host
    }

    /// `POST /v1/payments` with our attempt id as the reference and the request's idempotency key as the
    /// `Idempotency-Key` header, so a repeated request never pays twice.
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        let body = try ProviderJSON.standard.encode(__Name__Mapping.paymentRequest(request, account: account))
        let exchange = try await exchange(
            .createPayment, method: "POST", path: "/v1/payments", body: body,
            idempotencyKey: request.idempotencyKey, account: account, as: __Name__Payment.self)
        return exchange.resolve(__Name__Mapping.paymentOutcome)
    }

    /// `GET /v1/payments/{id}` by the provider's id, or by our attempt id when the provider's is not known.
    ///
    /// A lookup by our reference that finds nothing is judged by ``NotFoundRule`` (account option
    /// `not_found_delay_seconds`, default ``__Name__Mapping/notFoundDelay``): `notSent` once the delay since
    /// the attempt's start has passed, else `unknown`.
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        let knownId = request.payment.knownProviderPaymentId
        let path = "/v1/payments/" + ProviderURL.pathSegment(knownId ?? request.payment.attemptId)
        let exchange = try await exchange(
            .getPayment, method: "GET", path: path, body: nil, idempotencyKey: nil, account: account,
            as: __Name__Payment.self)
        if knownId == nil, exchange.outcome == __Name__Mapping.notFound {
            return NotFoundRule(options: account.options, defaultDelay: __Name__Mapping.notFoundDelay)
                .outcome(
                    provider: __Name__Mapping.provider, attemptStartedAt: request.attemptStartedAt, now: host.now())
        }
        return exchange.resolve(__Name__Mapping.paymentOutcome)
    }
}
